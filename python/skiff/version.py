"""Skiff's version in Paddle's shape (paddle.version: full_version, major, minor, patch, rc,
commit, istaged, show(), cuda(), cudnn(), nccl(), xpu(), cinn(), with_mkl(), ...)."""
full_version = "0.1.0"
major, minor, patch = full_version.split(".")
rc = "0"
istaged = True
commit = "unknown"
with_mkl = "OFF"
cuda_archs = []

__all__ = ["full_version", "major", "minor", "patch", "rc", "commit", "istaged", "show", "cuda",
           "cudnn", "nccl", "xpu", "xpu_xre", "xpu_xccl", "xpu_xhpc", "cinn", "tensorrt",
           "cuda_archs", "with_mkl"]


def _cuda_build():
    from . import _C
    return _C.is_compiled_with_cuda()


def cuda():
    """The CUDA version of the build, False without CUDA (Paddle's answer)."""
    return "unknown" if _cuda_build() else False


def cudnn():
    return False


def nccl():
    return 0


def xpu():
    return False


xpu_xre = xpu_xccl = xpu_xhpc = xpu


def cinn():
    return False


def tensorrt():
    return None


def show():
    """Prints the version and what the build has, as Paddle's paddle.version.show()."""
    if istaged:
        print(f"full_version: {full_version}")
        print(f"major: {major}")
        print(f"minor: {minor}")
        print(f"patch: {patch}")
        print(f"rc: {rc}")
    else:
        print(f"commit: {commit}")
    print(f"cuda: {cuda()}")
    print(f"cudnn: {cudnn()}")
    print(f"nccl: {nccl()}")
    print(f"xpu_xre: {xpu()}")
    print(f"xpu_xccl: {xpu()}")
    print(f"xpu_xhpc: {xpu()}")
    print(f"cinn: {cinn()}")
    print(f"tensorrt: {tensorrt()}")
    print(f"cuda_archs: {cuda_archs}")
