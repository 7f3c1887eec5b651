"""Each case in its own process, with a time limit.

The parent imports the package once and forks a child per case (a fork
costs a few milliseconds; the child inherits the parsed corpus and the
reference results). The child sends messages to the parent through a pipe
(length-prefixed pickles) as it goes, so that the parent knows the steps
and the phase reached when the child dies; it writes its stdout and stderr
to a file the parent reads when something went wrong. SIGALRM (its default
action ends the process, even inside compiled code) stops a child that the
parent failed to stop; the parent kills a child at its deadline.
"""
import faulthandler
import os
import pickle
import select
import signal
import struct
import sys
import tempfile
import time
import traceback


class Child:
    """A forked child running `body(send)`; `messages` are what it sent."""

    def __init__(self, body, time_limit, tag=None):
        self.tag, self.messages, self.time_limit = tag, [], time_limit
        self.timed_out = False
        self._buffer = b""
        log = tempfile.NamedTemporaryFile(prefix="schedule-diff-", suffix=".log", delete=False)
        self.log_path = log.name
        log.close()
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child
            status = 0
            try:
                os.close(read_fd)
                signal.signal(signal.SIGALRM, signal.SIG_DFL)
                signal.alarm(int(time_limit) + 2)
                out = os.open(self.log_path, os.O_WRONLY | os.O_TRUNC)
                os.dup2(out, 1)
                os.dup2(out, 2)
                # A fatal signal (an abort in compiled code) prints the
                # Python stack to the log, beside what the library printed.
                faulthandler.enable(file=sys.stderr, all_threads=False)

                def send(message):
                    data = pickle.dumps(message)
                    os.write(write_fd, struct.pack("<I", len(data)) + data)

                body(send)
            except BaseException:  # noqa: BLE001 - reported, then the child ends
                try:
                    send(("error", traceback.format_exc()))
                except BaseException:  # noqa: BLE001
                    pass
                status = 3
            # No destructors, no atexit: only what the case did counts.
            os._exit(status)
        os.close(write_fd)
        self.pid, self.fd = pid, read_fd
        self.started = time.monotonic()
        self.deadline = self.started + time_limit
        self.status = None

    def read(self):
        """Reads what is available; False at end of file."""
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            return False
        self._buffer += chunk
        while len(self._buffer) >= 4:
            (size,) = struct.unpack("<I", self._buffer[:4])
            if len(self._buffer) < 4 + size:
                break
            self.messages.append(pickle.loads(self._buffer[4:4 + size]))
            self._buffer = self._buffer[4 + size:]
        return True

    def kill(self):
        self.timed_out = True
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def finish(self):
        """Waits for the child; sets status (waitpid's) and `elapsed`."""
        os.close(self.fd)
        _, self.status = os.waitpid(self.pid, 0)
        self.elapsed = time.monotonic() - self.started

    def log_tail(self, size=3000):
        try:
            with open(self.log_path, "rb") as f:
                data = f.read()
            return data[-size:].decode("utf-8", "replace")
        finally:
            os.unlink(self.log_path)

    def ended_by(self):
        """'exit N', 'signal NAME' or 'timeout'."""
        if self.timed_out:
            return "timeout"
        if os.WIFSIGNALED(self.status):
            sig = os.WTERMSIG(self.status)
            if sig == signal.SIGALRM:
                return "timeout"
            return f"signal {signal.Signals(sig).name}"
        return f"exit {os.WEXITSTATUS(self.status)}"


def run_all(tasks, jobs, on_done, should_stop=lambda: False):
    """Runs tasks (an iterator of (body, time_limit, tag)) with at most
    `jobs` children at once; on_done(child) for each as it ends."""
    running = {}
    tasks = iter(tasks)
    exhausted = False
    while True:
        while not exhausted and len(running) < jobs and not should_stop():
            try:
                body, limit, tag = next(tasks)
            except StopIteration:
                exhausted = True
                break
            child = Child(body, limit, tag)
            running[child.fd] = child
        if not running:
            return
        now = time.monotonic()
        wait = max(0.0, min(c.deadline for c in running.values()) - now)
        ready, _, _ = select.select(list(running), [], [], wait)
        for fd in ready:
            child = running[fd]
            if not child.read():
                del running[fd]
                child.finish()
                on_done(child)
        now = time.monotonic()
        for child in list(running.values()):
            if now >= child.deadline and not child.timed_out:
                child.kill()


def run_one(body, time_limit):
    """Runs one body in a child and returns the child once it ended."""
    done = []
    run_all([(body, time_limit, None)], 1, done.append)
    return done[0]
