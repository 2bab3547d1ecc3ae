# SPDX-License-Identifier: Apache-2.0
"""NaNscope's recorder for Python programs.

``nanscope.torch.enable_dump_debug_info(dump_root)`` records every aten op of a PyTorch program
into a tfdbg2 logdir that NaNscope (and TensorFlow's own reader) opens.
"""

from ._nanscope import recorder_version as _recorder_version
from ._stop import NonFiniteError

__all__ = ["NonFiniteError"]
__version__ = _recorder_version().split(" ")[-1]
