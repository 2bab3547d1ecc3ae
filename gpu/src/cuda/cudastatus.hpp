// SPDX-License-Identifier: Apache-2.0
// CUDA runtime errors as the facade's Status values.
#pragma once

#include "nanscope/status.hpp"

#include <cuda_runtime_api.h>
#include <string>

namespace nanscope::gpu::detail {

// "<what>: <the runtime's message> (<error name>)"; ErrorCode::IoError, the code the recorder
// uses for failures outside the caller's control.
inline Status cudaStatus(cudaError_t error, const std::string& what)
{
    if (error == cudaSuccess)
        return {};
    return {ErrorCode::IoError,
            what + ": " + cudaGetErrorString(error) + " (" + cudaGetErrorName(error) + ")"};
}

// Which kind of memory `pointer` is, as a device-accessible address for the kernel, or why the
// device cannot read it. `what` names the pointer in messages.
Status deviceAddress(const void* pointer, int device, const std::string& what,
                     const void*& accessible);

} // namespace nanscope::gpu::detail
