// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope-iconrender SVG OUTDIR NAME: renders the app's SVG icon into the files that desktops
// and installers want, at build time:
//   OUTDIR/hicolor/<N>x<N>/apps/NAME.png   N = 16, 22, 24, 32, 48, 64, 128, 256, 512
//   OUTDIR/NAME.ico                        Windows: 16 … 256, PNG-compressed entries
//   OUTDIR/NAME.icns                       macOS: 16 … 1024, PNG entries
// The container formats are written here (they are a header and a table around PNG data), so
// that no image-format plugin and no platform tool is needed.
#include <QBuffer>
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QtEndian>
#include <cstdio>
#include <vector>

namespace {

QImage render(QSvgRenderer& renderer, int size)
{
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    renderer.render(&painter);
    painter.end();
    return image.convertToFormat(QImage::Format_ARGB32);
}

QByteArray pngBytes(const QImage& image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return {};
    return bytes;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(bytes) != bytes.size()) {
        std::fprintf(stderr, "nanscope-iconrender: cannot write %s\n", qPrintable(path));
        return false;
    }
    return true;
}

void appendLe16(QByteArray& out, quint16 value)
{
    value = qToLittleEndian(value);
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void appendLe32(QByteArray& out, quint32 value)
{
    value = qToLittleEndian(value);
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void appendBe32(QByteArray& out, quint32 value)
{
    value = qToBigEndian(value);
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

struct Entry
{
    int size;
    QByteArray png;
};

// ICONDIR, one ICONDIRENTRY per image, then the PNG streams (Windows Vista and later).
QByteArray icoFile(const std::vector<Entry>& entries)
{
    QByteArray out;
    appendLe16(out, 0); // reserved
    appendLe16(out, 1); // type: icon
    appendLe16(out, static_cast<quint16>(entries.size()));
    quint32 offset = 6 + 16 * static_cast<quint32>(entries.size());
    for (const Entry& entry : entries) {
        const char side = static_cast<char>(entry.size >= 256 ? 0 : entry.size); // 0 means 256
        out.append(side);
        out.append(side);
        out.append('\0');    // no palette
        out.append('\0');    // reserved
        appendLe16(out, 1);  // colour planes
        appendLe16(out, 32); // bits per pixel
        appendLe32(out, static_cast<quint32>(entry.png.size()));
        appendLe32(out, offset);
        offset += static_cast<quint32>(entry.png.size());
    }
    for (const Entry& entry : entries)
        out.append(entry.png);
    return out;
}

// 'icns', the file length, then (type, length, PNG) per image; lengths are big-endian and
// include their 8-byte headers.
QByteArray icnsFile(const std::vector<std::pair<const char*, QByteArray>>& entries)
{
    QByteArray body;
    for (const auto& [type, png] : entries) {
        body.append(type, 4);
        appendBe32(body, static_cast<quint32>(8 + png.size()));
        body.append(png);
    }
    QByteArray out("icns");
    appendBe32(out, static_cast<quint32>(8 + body.size()));
    out.append(body);
    return out;
}

} // namespace

int main(int argc, char* argv[])
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: nanscope-iconrender SVG OUTDIR NAME\n");
        return 2;
    }
    const QString svg = QFile::decodeName(argv[1]);
    const QDir outDir(QFile::decodeName(argv[2]));
    const QString name = QFile::decodeName(argv[3]);

    QSvgRenderer renderer(svg);
    if (!renderer.isValid()) {
        std::fprintf(stderr, "nanscope-iconrender: %s is not a valid SVG file\n", argv[1]);
        return 1;
    }

    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256, 512}) {
        const QString dir = QStringLiteral("hicolor/%1x%1/apps").arg(size);
        if (!outDir.mkpath(dir)) {
            std::fprintf(stderr, "nanscope-iconrender: cannot create %s\n",
                         qPrintable(outDir.filePath(dir)));
            return 1;
        }
        if (!writeFile(outDir.filePath(dir + QLatin1Char('/') + name + QStringLiteral(".png")),
                       pngBytes(render(renderer, size))))
            return 1;
    }

    std::vector<Entry> ico;
    for (const int size : {16, 24, 32, 48, 64, 256})
        ico.push_back({size, pngBytes(render(renderer, size))});
    if (!writeFile(outDir.filePath(name + QStringLiteral(".ico")), icoFile(ico)))
        return 1;

    const std::vector<std::pair<const char*, QByteArray>> icns = {
        {"icp4", pngBytes(render(renderer, 16))},   {"icp5", pngBytes(render(renderer, 32))},
        {"icp6", pngBytes(render(renderer, 64))},   {"ic07", pngBytes(render(renderer, 128))},
        {"ic08", pngBytes(render(renderer, 256))},  {"ic09", pngBytes(render(renderer, 512))},
        {"ic10", pngBytes(render(renderer, 1024))},
    };
    if (!writeFile(outDir.filePath(name + QStringLiteral(".icns")), icnsFile(icns)))
        return 1;
    return 0;
}
