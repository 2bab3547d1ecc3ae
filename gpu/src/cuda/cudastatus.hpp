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

// How a message names a pointer: "the tensor", or "tensor 3" of a batch. Made into text only
// for a message, so that the pointers of a batch that is fine cost no strings.
struct PointerName
{
    const char* noun = "the tensor";
    long index = -1; // none

    std::string text() const
    {
        return index < 0 ? std::string(noun) : std::string(noun) + " " + std::to_string(index);
    }
};

// Which kind of memory `pointer` is, as a device-accessible address for the kernel, or why the
// device cannot read it.
Status deviceAddress(const void* pointer, int device, const PointerName& name,
                     const void*& accessible);

} // namespace nanscope::gpu::detail
