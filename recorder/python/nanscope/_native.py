# SPDX-License-Identifier: Apache-2.0
"""The recorder's extension for nanscope.torch: the build with the C++ op observer
(_nanscope_observed, linked against the torch it was built for) where there is one and it
loads, else the build without it (_nanscope), which observes ops with a Python dispatch mode.

An observer built for another torch (the environment's torch was upgraded since `pip
install`) does not load: the recording then works as before, slower, and says how to get the
observer back. Import torch before this module."""

import warnings

try:
    from . import _nanscope_observed as native
except ModuleNotFoundError:  # built without torch's C++ headers
    from . import _nanscope as native
except ImportError as error:  # built for another torch
    from . import _nanscope as native

    warnings.warn(
        f"NaNscope: its C++ op observer was built for another torch and does not load here "
        f"({error}); ops are observed by a Python dispatch mode, several times slower. "
        "Reinstall nanscope (python3 -m pip install --no-build-isolation .) for this torch.",
        RuntimeWarning, stacklevel=2)

__all__ = ["native"]
