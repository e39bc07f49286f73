"""paddle.incubate.autograd: functional reverse-mode transforms (vjp, jvp) and lazily
evaluated Jacobian/Hessian objects of a function (see skiff/autograd/functional.py)."""
from ...autograd.functional import IncubateHessian as Hessian
from ...autograd.functional import IncubateJacobian as Jacobian
from ...autograd.functional import jvp, vjp
from ... import autograd as _autograd

grad = _autograd.grad

__all__ = ["vjp", "jvp", "Jacobian", "Hessian", "grad"]
