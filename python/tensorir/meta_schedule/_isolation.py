"""Tasks run in forked child processes, each with a timeout: a task that
crashes the process (a segfault in generated code or the compiler) or hangs
is reported as such and never takes the tuning down. At most `max_workers`
children run at once. Forking shares the parent's state (registered
functions, closures) with the child without pickling; the MLIR context's
thread pool is switched off first, since a forked child has none of the
parent's threads. A task may also be given a deadline for a part of it,
which it marks with `deadline_begins()` and `deadline_ends()`: a task that
spends longer in that part is stopped ("late")."""
import multiprocessing
import os
import time
import traceback

__all__ = ["Outcome", "deadline_begins", "deadline_ends", "run_isolated"]

# In a child given a deadline: when its task began the part the deadline
# is for (time.monotonic(), the same clock in every process), 0 before, -1
# after; a double shared with the parent. None elsewhere.
_part_began = None


def deadline_begins():
    """Called by a task in a child: the part run_isolated's deadline is for
    begins now."""
    if _part_began is not None:
        _part_began.value = time.monotonic()


def deadline_ends():
    """Called by a task in a child: that part is done; the deadline no
    longer applies."""
    if _part_began is not None:
        _part_began.value = -1.0


class Outcome:
    """What running a task in a child gave: `kind` is "ok" (value is the
    task's result), "error" (value: the exception's traceback), "timeout",
    "late" (value: the seconds it had spent in the part given a deadline) or
    "crash" (value: the exit code or signal)."""

    __slots__ = ("kind", "value")

    def __init__(self, kind, value=None):
        self.kind, self.value = kind, value

    def __repr__(self):
        return f"Outcome({self.kind!r}, {self.value!r})"


def _child(connection, initializer, function, args, part_began):
    global _part_began
    _part_began = part_began
    try:
        if initializer is not None:
            initializer()
        result = ("ok", function(*args))
    except BaseException:  # noqa: B902 - everything goes back to the parent
        result = ("error", traceback.format_exc())
    try:
        connection.send(result)
    except Exception:  # noqa: BLE001 - a result that does not pickle
        connection.send(("error", traceback.format_exc()))
    connection.close()
    os._exit(0)  # no atexit handlers or finalizers of the parent's objects


def _finish(process, receiver):
    """The outcome of a child whose pipe has data or closed."""
    try:
        kind, value = receiver.recv()
    except (EOFError, OSError):
        # It died before (or while) answering: a crash.
        process.join()
        return Outcome("crash", process.exitcode)
    process.join()
    return Outcome(kind, value)


def run_isolated(tasks, *, max_workers=None, timeout=None, initializer=None,
                 deadline=None):
    """Runs each task (a (function, args) pair) in a forked child and
    returns their Outcomes in order. A task that spends more than
    `deadline` seconds between its deadline_begins() and deadline_ends()
    is killed ("late").
    The MLIR context's threads are off while children are forked, and back
    as they were afterwards; the children still running when the parent
    is interrupted are killed."""
    from .._ext import ext
    threaded = ext.multithreading_enabled()
    ext.set_multithreading(False)
    context = multiprocessing.get_context("fork")
    max_workers = max(1, max_workers or os.cpu_count() or 1)
    outcomes = [None] * len(tasks)
    pending = list(enumerate(tasks))
    running = {}  # index -> (process, connection, start, part_began)
    try:
        while pending or running:
            while pending and len(running) < max_workers:
                index, (function, args) = pending.pop(0)
                receiver, sender = context.Pipe(duplex=False)
                part_began = (context.Value("d", 0.0, lock=False)
                              if deadline is not None else None)
                process = context.Process(target=_child, args=(
                    sender, initializer, function, tuple(args), part_began))
                process.start()
                sender.close()
                running[index] = (process, receiver, time.monotonic(), part_began)
            for index, (process, receiver, start, part_began) in list(running.items()):
                now = time.monotonic()
                began = part_began.value if part_began is not None else -1.0
                if receiver.poll():
                    outcomes[index] = _finish(process, receiver)
                elif not process.is_alive():
                    # It may have answered between poll() and is_alive().
                    if receiver.poll():
                        outcomes[index] = _finish(process, receiver)
                    else:
                        process.join()
                        outcomes[index] = Outcome("crash", process.exitcode)
                elif timeout is not None and now - start > timeout:
                    process.kill()
                    process.join()
                    outcomes[index] = Outcome("timeout", timeout)
                elif began > 0 and now - began > deadline:
                    process.kill()
                    process.join()
                    outcomes[index] = Outcome("late", now - began)
                else:
                    continue
                receiver.close()
                del running[index]
            if running:
                time.sleep(0.001)
    finally:
        for process, receiver, _, _ in running.values():
            process.kill()
            process.join()
            receiver.close()
        ext.set_multithreading(threaded)
    return outcomes
