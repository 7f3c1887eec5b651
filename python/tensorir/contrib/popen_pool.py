"""tvm.contrib.popen_pool: functions run in other processes (a worker, a
pool), on the standard library's process pools."""
import concurrent.futures
import multiprocessing


class PopenWorker:
    """One worker process: send(fn, args, kwargs, timeout), then recv()
    returns the result (or raises what fn raised, TimeoutError when it ran
    past the timeout)."""

    def __init__(self, initializer=None, initargs=(), maxtasks=None, stdout=None,
                 stderr=None):
        self._initializer, self._initargs = initializer, initargs
        self._pool = None
        self._pending = None

    def _ensure(self):
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"),
                initializer=self._initializer, initargs=self._initargs)
        return self._pool

    def send(self, fn, args=(), kwargs=None, timeout=None):
        self._pending = (self._ensure().submit(fn, *args, **(kwargs or {})), timeout)

    def recv(self):
        if self._pending is None:
            raise RuntimeError("PopenWorker.recv: nothing was sent")
        future, timeout = self._pending
        self._pending = None
        try:
            return future.result(timeout=timeout)
        except concurrent.futures.TimeoutError:
            self.kill()
            raise TimeoutError("PopenWorker: the call ran past its timeout") from None

    def kill(self):
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def __del__(self):
        try:
            self.kill()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


class PopenPoolExecutor:
    """A pool of `max_workers` processes: submit(fn, *args) gives a
    concurrent.futures.Future; map(fn, iterable) the results in order."""

    def __init__(self, max_workers=None, timeout=None, initializer=None, initargs=(),
                 maxtasks_per_child=None, stdout=None, stderr=None):
        self._timeout = timeout
        self._pool = concurrent.futures.ProcessPoolExecutor(
            max_workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=initializer, initargs=initargs)

    def submit(self, fn, *args, **kwargs):
        return self._pool.submit(fn, *args, **kwargs)

    def map_with_error_catching(self, fn, iterator):
        """Each result as a MapResult: value, or the exception raised."""
        futures = [self._pool.submit(fn, x) for x in iterator]
        results = []
        for f in futures:
            try:
                results.append(MapResult(StatusKind.COMPLETE, f.result(timeout=self._timeout)))
            except concurrent.futures.TimeoutError as e:
                results.append(MapResult(StatusKind.TIMEOUT, e))
            except Exception as e:  # noqa: BLE001 - handed back to the caller
                results.append(MapResult(StatusKind.EXCEPTION, e))
        return results

    def shutdown(self, wait=True):
        self._pool.shutdown(wait=wait)

    def __del__(self):
        try:
            self._pool.shutdown(wait=False)
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


class StatusKind:
    COMPLETE, EXCEPTION, TIMEOUT = 0, 1, 2


class MapResult:
    def __init__(self, status, value):
        self.status, self.value = status, value


__all__ = ["MapResult", "PopenPoolExecutor", "PopenWorker", "StatusKind"]
