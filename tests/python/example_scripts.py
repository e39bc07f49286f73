"""Loads an example's train.py as a module of its own name (llama_train, vision_train), so test
files that run different examples in one pytest process do not share one `train` module."""
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def train_module(example):
    name = f"{example}_train"
    if name not in sys.modules:
        path = os.path.join(ROOT, "examples", example, "train.py")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
