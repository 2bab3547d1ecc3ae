// SPDX-License-Identifier: Apache-2.0
// The primitive ops the model's templates (mlp.cpp, mlp_gradients.hpp) call, each with the same
// name and signature in both demos' math namespaces (demo::math and demo::cuda::math): one list,
// which each demo's ops struct (HostOps, cuda::GpuOps) binds to its own functions.
#pragma once

#define NANSCOPE_DEMO_PRIMITIVE_OPS(BIND)                                                          \
    BIND(oneHot)                                                                                   \
    BIND(matmul)                                                                                   \
    BIND(add)                                                                                      \
    BIND(relu)                                                                                     \
    BIND(softmax)                                                                                  \
    BIND(log)                                                                                      \
    BIND(minimum)                                                                                  \
    BIND(maximum)                                                                                  \
    BIND(meanAll)                                                                                  \
    BIND(tile)                                                                                     \
    BIND(multiply)                                                                                 \
    BIND(divide)                                                                                   \
    BIND(subtract)                                                                                 \
    BIND(negate)                                                                                   \
    BIND(reciprocal)                                                                               \
    BIND(zerosLike)                                                                                \
    BIND(greaterEqual)                                                                             \
    BIND(lessEqual)                                                                                \
    BIND(select)                                                                                   \
    BIND(reluGrad)                                                                                 \
    BIND(sumAxis0)                                                                                 \
    BIND(sumLastAxisKeepDims)                                                                      \
    BIND(matmulTransposeA)                                                                         \
    BIND(matmulTransposeB)

// Binds `name` to math::name of the namespace the ops struct is declared in.
#define NANSCOPE_DEMO_BIND_MATH_OP(name) static constexpr auto name = &math::name;
