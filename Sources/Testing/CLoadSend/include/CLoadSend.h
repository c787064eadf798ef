#pragma once
#include <stddef.h>

/// sendmmsg(2) on a connected socket: `count` datagrams, datagram i is `lengths[i]`
/// bytes at `slots + i * stride`. Returns how many the kernel took (or -1).
int remotion_sendmmsg(int fd, const unsigned char *slots, size_t stride, const size_t *lengths, unsigned count);
