"""tvm.contrib.utils: temporary directories."""
import os
import shutil
import tempfile


class TempDirectory:
    """A directory removed when the object is (or at the end of a `with`)."""

    def __init__(self, custom_path=None, keep_for_debug=False):
        if custom_path:
            os.makedirs(custom_path, exist_ok=True)
            self.temp_dir = os.path.abspath(custom_path)
        else:
            self.temp_dir = tempfile.mkdtemp(prefix="tir-")
        self._keep = keep_for_debug or bool(custom_path)

    def relpath(self, name):
        """The path of `name` inside the directory."""
        return os.path.join(self.temp_dir, name)

    def listdir(self):
        return os.listdir(self.temp_dir)

    def remove(self):
        if self.temp_dir and not self._keep:
            shutil.rmtree(self.temp_dir, ignore_errors=True)
            self.temp_dir = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()

    def __del__(self):
        try:
            self.remove()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def tempdir(custom_path=None, keep_for_debug=None):
    """A new TempDirectory (TVM's utils.tempdir)."""
    return TempDirectory(custom_path, bool(keep_for_debug))


__all__ = ["TempDirectory", "tempdir"]
