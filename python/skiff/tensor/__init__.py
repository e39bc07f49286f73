"""skiff.tensor: creation, the top-level functions, indexing and Tensor methods."""
from .creation import *  # noqa: F401,F403
from .functions import *  # noqa: F401,F403
from .stat import *  # noqa: F401,F403
from .math_functions import *  # noqa: F401,F403
from .index_functions import *  # noqa: F401,F403
from .math_compositions import *  # noqa: F401,F403
from .manipulation_functions import *  # noqa: F401,F403
from .inplace_functions import *  # noqa: F401,F403
from .attribute import *  # noqa: F401,F403
from .array_functions import *  # noqa: F401,F403
from .special_functions import *  # noqa: F401,F403
from .random_fill import *  # noqa: F401,F403
from .bit_shifts import *  # noqa: F401,F403
from .histogramdd import *  # noqa: F401,F403
from .standard_gamma import *  # noqa: F401,F403
from .binomial import *  # noqa: F401,F403
from .complex_functions import *  # noqa: F401,F403
