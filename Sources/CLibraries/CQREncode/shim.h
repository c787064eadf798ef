// The system libqrencode (Debian: libqrencode-dev), used by QRCode: QRcode_encodeString and QRcode_free.
#include <qrencode.h>
