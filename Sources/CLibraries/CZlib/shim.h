// The system zlib (Debian: zlib1g-dev), used by RemotionUI for PNG: compress2 and crc32.
#include <zlib.h>
