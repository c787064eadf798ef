#define _GNU_SOURCE
#include "CLoadSend.h"
#include <string.h>
#include <sys/socket.h>

int remotion_sendmmsg(int fd, const unsigned char *slots, size_t stride, const size_t *lengths, unsigned count) {
    struct mmsghdr msgs[64];
    struct iovec iov[64];
    if (count > 64) count = 64;
    memset(msgs, 0, sizeof(struct mmsghdr) * count);
    for (unsigned i = 0; i < count; i++) {
        iov[i].iov_base = (void *)(slots + i * stride);
        iov[i].iov_len = lengths[i];
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
    }
    return sendmmsg(fd, msgs, count, 0);
}
