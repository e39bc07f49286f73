"""The raw op table, looked up once (nn.functional calls it directly: no wrapper layers)."""
from ... import _C

ops = _C.ops
