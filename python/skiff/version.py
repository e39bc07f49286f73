"""Skiff's version (Paddle exposes paddle.version.full_version and paddle.__version__)."""
full_version = "0.1.0"
major, minor, patch = full_version.split(".")
commit = "unknown"


def show():
    print(f"full_version: {full_version}")
