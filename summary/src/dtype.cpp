// SPDX-License-Identifier: Apache-2.0
#include "nanscope/dtype.hpp"

namespace nanscope {

std::size_t elementSize(DType dtype)
{
    switch (dtype) {
    case DType::Int8:
    case DType::UInt8:
    case DType::Bool:
        return 1;
    case DType::Int16:
    case DType::UInt16:
    case DType::Float16:
    case DType::BFloat16:
        return 2;
    case DType::Int32:
    case DType::UInt32:
    case DType::Float32:
        return 4;
    case DType::Int64:
    case DType::UInt64:
    case DType::Float64:
    case DType::Complex64:
        return 8;
    case DType::Complex128:
        return 16;
    case DType::Invalid:
    case DType::String:
    case DType::Resource:
    case DType::Variant:
        return 0;
    }
    return 0;
}

bool isFloating(DType dtype)
{
    return dtype == DType::Float16 || dtype == DType::BFloat16 || dtype == DType::Float32 ||
           dtype == DType::Float64;
}

bool isInteger(DType dtype)
{
    switch (dtype) {
    case DType::Int8:
    case DType::UInt8:
    case DType::Int16:
    case DType::UInt16:
    case DType::Int32:
    case DType::UInt32:
    case DType::Int64:
    case DType::UInt64:
        return true;
    default:
        return false;
    }
}

bool hasFixedSizeElements(DType dtype)
{
    return elementSize(dtype) != 0;
}

std::string_view dtypeName(DType dtype)
{
    switch (dtype) {
    case DType::Float16:
        return "float16";
    case DType::Float32:
        return "float32";
    case DType::Float64:
        return "float64";
    case DType::Int32:
        return "int32";
    case DType::UInt8:
        return "uint8";
    case DType::UInt16:
        return "uint16";
    case DType::UInt32:
        return "uint32";
    case DType::UInt64:
        return "uint64";
    case DType::Int16:
        return "int16";
    case DType::Int8:
        return "int8";
    case DType::String:
        return "string";
    case DType::Complex64:
        return "complex64";
    case DType::Complex128:
        return "complex128";
    case DType::Int64:
        return "int64";
    case DType::Bool:
        return "bool";
    case DType::BFloat16:
        return "bfloat16";
    case DType::Resource:
        return "resource";
    case DType::Variant:
        return "variant";
    case DType::Invalid:
        break;
    }
    return "unknown";
}

} // namespace nanscope
