"""Builds and packages skiff for pip: `python3 -m pip install --no-build-isolation .` (and
`pip wheel`) run the project's CMake build of the extension target (skiff._C and the generated
skiff/_op_functions.py, both written into python/skiff), then package python/skiff with them.

SKIFF_BUILD_DIR picks the CMake build directory (default build/ of the source tree): an
existing, up-to-date build makes the CMake step a no-op check, so installing from a built tree
costs no second build. Extra CMake arguments: SKIFF_CMAKE_ARGS (split on spaces).
"""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.join(ROOT, "python", "skiff")


def cmake_build():
    build_dir = os.environ.get("SKIFF_BUILD_DIR", os.path.join(ROOT, "build"))
    cmake = shutil.which("cmake")
    if cmake is None:
        sys.exit("setup.py: cmake not found (apt-get install cmake ninja-build)")
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        args = [cmake, "-S", ROOT, "-B", build_dir, f"-DPython3_EXECUTABLE={sys.executable}",
                "-DSKIFF_BUILD_TESTS=OFF", "-DSKIFF_BUILD_BENCH=OFF"]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        args += os.environ.get("SKIFF_CMAKE_ARGS", "").split()
        subprocess.check_call(args)
    subprocess.check_call([cmake, "--build", build_dir, "--target", "skiff_python",
                           "-j", str(os.cpu_count() or 1)])
    if not glob.glob(os.path.join(PKG, "_C*.so")):
        sys.exit(f"setup.py: the CMake build in {build_dir} wrote no python/skiff/_C*.so")


class BuildWithCMake(build_py):
    def run(self):
        cmake_build()
        super().run()


class BinaryDistribution(Distribution):
    """The package carries a compiled extension: the wheel is tagged for this Python and
    platform (cp311-cp311-linux_x86_64), not py3-none-any."""

    def has_ext_modules(self):
        return True


setup(
    distclass=BinaryDistribution,
    packages=find_packages("python", include=["skiff", "skiff.*"]),
    package_dir={"": "python"},
    package_data={"skiff": ["_C*.so"]},
    include_package_data=False,
    cmdclass={"build_py": BuildWithCMake},
    zip_safe=False,
)
