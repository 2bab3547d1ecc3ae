// SPDX-License-Identifier: Apache-2.0
#include "mnist_idx.hpp"

#include <array>
#include <cstdint>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace nanscope::demo {

namespace {

constexpr std::array kFileNames = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                                   "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};

// Unsigned bytes; the low byte of the magic number is the rank.
constexpr std::uint32_t kMagicUByte = 0x0800;

std::uint32_t bigEndian32(const unsigned char* p)
{
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           std::uint32_t{p[3]};
}

std::vector<unsigned char> readFile(const std::filesystem::path& path)
{
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error)
        throw DataError(path.string() + ": " + error.message());
    if (size > (std::uintmax_t{1} << 32))
        throw DataError(path.string() + ": too large for an MNIST file");
    std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
    std::ifstream in(path, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size)))
        throw DataError(path.string() + ": cannot be read");
    return bytes;
}

// The dimensions in the header of an IDX file of unsigned bytes with `rank` dimensions; checks
// that the file holds exactly that many bytes after the header, and returns the offset of the
// data in `offset`.
std::vector<std::uint32_t> idxDimensions(const std::vector<unsigned char>& bytes,
                                         const std::filesystem::path& path, std::size_t rank,
                                         std::size_t& offset)
{
    const std::size_t header = 4 + 4 * rank;
    if (bytes.size() < header)
        throw DataError(path.string() + ": too short for an IDX header");
    const std::uint32_t magic = bigEndian32(bytes.data());
    if (magic != (kMagicUByte | rank))
        throw DataError(path.string() + ": not an IDX file of unsigned bytes with " +
                        std::to_string(rank) + " dimensions (magic number " +
                        std::to_string(magic) + ")");
    std::vector<std::uint32_t> dims(rank);
    std::string dimsText;
    const std::uint64_t available = bytes.size() - header;
    std::uint64_t payload = 1;
    bool tooLarge = false;
    for (std::size_t i = 0; i < rank; ++i) {
        dims[i] = bigEndian32(bytes.data() + 4 + 4 * i);
        dimsText += (i ? "x" : "") + std::to_string(dims[i]);
        // The product is only formed while it cannot exceed the file, so it never overflows.
        if (dims[i] != 0 && payload > available / dims[i])
            tooLarge = true;
        else
            payload *= dims[i];
    }
    if (tooLarge || payload != available)
        throw DataError(path.string() + ": the header's dimensions " + dimsText +
                        " do not match the " + std::to_string(available) +
                        " bytes of data in the file");
    offset = header;
    return dims;
}

Dataset loadSplit(const std::filesystem::path& imagesPath, const std::filesystem::path& labelsPath)
{
    const auto imageBytes = readFile(imagesPath);
    const auto labelBytes = readFile(labelsPath);
    std::size_t imageOffset = 0;
    std::size_t labelOffset = 0;
    const auto imageDims = idxDimensions(imageBytes, imagesPath, 3, imageOffset);
    const auto labelDims = idxDimensions(labelBytes, labelsPath, 1, labelOffset);
    if (imageDims[1] != kImageSide || imageDims[2] != kImageSide)
        throw DataError(imagesPath.string() + ": images are " + std::to_string(imageDims[1]) + "x" +
                        std::to_string(imageDims[2]) + ", not 28x28");
    if (imageDims[0] != labelDims[0])
        throw DataError(labelsPath.string() + ": " + std::to_string(labelDims[0]) + " labels for " +
                        std::to_string(imageDims[0]) + " images");
    if (imageDims[0] == 0)
        throw DataError(imagesPath.string() + ": holds no images");

    const auto n = static_cast<std::int64_t>(imageDims[0]);
    Dataset data{UInt8Tensor({n, kImageSide, kImageSide}), UInt8Tensor({n})};
    std::copy(imageBytes.begin() + static_cast<std::ptrdiff_t>(imageOffset), imageBytes.end(),
              data.images.values.begin());
    std::copy(labelBytes.begin() + static_cast<std::ptrdiff_t>(labelOffset), labelBytes.end(),
              data.labels.values.begin());
    for (std::size_t i = 0; i < data.labels.size(); ++i)
        if (data.labels[i] >= kClasses)
            throw DataError(labelsPath.string() + ": label " + std::to_string(data.labels[i]) +
                            " of example " + std::to_string(i) + " is not a digit");
    return data;
}

} // namespace

std::optional<DataSplits> loadMnist(const std::filesystem::path& directory)
{
    if (!std::filesystem::is_directory(directory))
        throw DataError(directory.string() + ": not a directory");
    std::vector<std::string> missing;
    for (const char* name : kFileNames)
        if (!std::filesystem::is_regular_file(directory / name))
            missing.emplace_back(name);
    if (missing.size() == kFileNames.size())
        return std::nullopt;
    if (!missing.empty())
        throw DataError((directory / missing.front()).string() +
                        ": missing (the other MNIST files are there)");
    DataSplits splits;
    splits.train = loadSplit(directory / kFileNames[0], directory / kFileNames[1]);
    splits.test = loadSplit(directory / kFileNames[2], directory / kFileNames[3]);
    splits.source = "MNIST from " + directory.string();
    return splits;
}

} // namespace nanscope::demo
