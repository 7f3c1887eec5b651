"""Tasks run in forked child processes, each with a timeout: a task that
crashes the process (a segfault in generated code or the compiler) or hangs
is reported as such and never takes the tuning down. At most `max_workers`
children run at once. Forking shares the parent's state (registered
functions, closures) with the child without pickling; the MLIR context's
thread pool is switched off first, since a forked child has none of the
parent's threads."""
import multiprocessing
import os
import time
import traceback

__all__ = ["Outcome", "run_isolated"]


class Outcome:
    """What running a task in a child gave: `kind` is "ok" (value is the
    task's result), "error" (value: the exception's traceback), "timeout"
    or "crash" (value: the exit code or signal)."""

    __slots__ = ("kind", "value")

    def __init__(self, kind, value=None):
        self.kind, self.value = kind, value

    def __repr__(self):
        return f"Outcome({self.kind!r}, {self.value!r})"


def _child(connection, initializer, function, args):
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


def run_isolated(tasks, *, max_workers=None, timeout=None, initializer=None):
    """Runs each task (a (function, args) pair) in a forked child and
    returns their Outcomes in order. The MLIR context's threads are off
    while children are forked, and back as they were afterwards; the
    children still running when the parent is interrupted are killed."""
    from .._ext import ext
    threaded = ext.multithreading_enabled()
    ext.set_multithreading(False)
    context = multiprocessing.get_context("fork")
    max_workers = max(1, max_workers or os.cpu_count() or 1)
    outcomes = [None] * len(tasks)
    pending = list(enumerate(tasks))
    running = {}  # index -> (process, connection, start)
    try:
        while pending or running:
            while pending and len(running) < max_workers:
                index, (function, args) = pending.pop(0)
                receiver, sender = context.Pipe(duplex=False)
                process = context.Process(target=_child,
                                          args=(sender, initializer, function, tuple(args)))
                process.start()
                sender.close()
                running[index] = (process, receiver, time.monotonic())
            for index, (process, receiver, start) in list(running.items()):
                if receiver.poll():
                    outcomes[index] = _finish(process, receiver)
                elif not process.is_alive():
                    # It may have answered between poll() and is_alive().
                    if receiver.poll():
                        outcomes[index] = _finish(process, receiver)
                    else:
                        process.join()
                        outcomes[index] = Outcome("crash", process.exitcode)
                elif timeout is not None and time.monotonic() - start > timeout:
                    process.kill()
                    process.join()
                    outcomes[index] = Outcome("timeout", timeout)
                else:
                    continue
                receiver.close()
                del running[index]
            if running:
                time.sleep(0.001)
    finally:
        for process, receiver, _ in running.values():
            process.kill()
            process.join()
            receiver.close()
        ext.set_multithreading(threaded)
    return outcomes
