"""paddle.utils: unique_name, try_import, run_check."""
import importlib

from ..nn import unique_name  # noqa: F401
from .install_check import run_check  # noqa: F401

__all__ = ["unique_name", "try_import", "run_check"]


def try_import(module_name, err_msg=None):
    """Imports `module_name`; a missing module is an ImportError saying what to install (the
    top-level package name; opencv-python for cv2), or `err_msg`."""
    if not isinstance(module_name, str):
        raise TypeError(f"try_import: argument 'module_name' expected a str, got "
                        f"{type(module_name).__name__}")
    install_name = module_name.split(".")[0]
    if module_name == "cv2":
        install_name = "opencv-python"
    try:
        return importlib.import_module(module_name)
    except ImportError:
        if err_msg is None:
            err_msg = (f"Failed importing {module_name}. This likely means that some paddle "
                       f"modules require additional dependencies that have to be manually "
                       f"installed (usually with `pip install {install_name}`). ")
        raise ImportError(err_msg) from None
