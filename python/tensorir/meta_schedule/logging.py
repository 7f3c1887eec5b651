"""tvm.meta_schedule.logging: the loggers tuning writes to (Python's
logging, under the "tvm.meta_schedule" name)."""
import logging

__all__ = ["get_logger"]


def get_logger(name):
    """The logger `name` (TVM's get_logger); its level defaults to INFO
    under "tvm.meta_schedule"."""
    logger = logging.getLogger(name)
    if logger.level == logging.NOTSET and not logging.getLogger().handlers:
        logger.setLevel(logging.INFO)
    return logger
