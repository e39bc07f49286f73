"""paddle.vision: models, transforms, datasets."""
from . import datasets, models, transforms  # noqa: F401
from .models import *  # noqa: F401,F403
