// The floor for docs/BENCHMARKS.md: a UDP receiver that does nothing with what it
// reads. epoll + recvmmsg (64 per call, like the host's NIO channel), a receive buffer
// of the same size as the host's, one thread. Its CPU per packet is the least any
// receiver on this machine pays for the same offered load (kernel copy, syscalls,
// wake-ups); the host's figure is compared against it in the same run.
//
//   usage: floor-recv PORTFILE RCVBUF SECONDS
// Binds 127.0.0.1:0, writes the port to PORTFILE, receives until SIGINT/SIGTERM or
// SECONDS have passed (a bound: it always stops by itself), then prints
// "packets N bytes B kernel_drops D" (drops from SO_RXQ_OVFL).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define SLOT 2048

static volatile sig_atomic_t stop = 0;
static void on_signal(int sig) { (void)sig; stop = 1; }

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: floor-recv PORTFILE RCVBUF SECONDS\n"); return 2; }
    int rcvbuf = atoi(argv[2]);
    double seconds = atof(argv[3]);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);

    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    if (fd < 0) { perror("socket"); return 1; }
    if (rcvbuf > 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf) != 0) perror("SO_RCVBUF");
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof one);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) { perror("bind"); return 1; }
    socklen_t len = sizeof addr;
    getsockname(fd, (struct sockaddr *)&addr, &len);
    FILE *pf = fopen(argv[1], "w");
    if (!pf) { perror("portfile"); return 1; }
    fprintf(pf, "%d\n", ntohs(addr.sin_port));
    fclose(pf);

    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);

    static char bufs[BATCH][SLOT];
    static char controls[BATCH][64];
    static struct sockaddr_storage names[BATCH];
    struct iovec iov[BATCH];
    struct mmsghdr msgs[BATCH];
    unsigned long long packets = 0, bytes = 0;
    unsigned int drops = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (!stop) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        double elapsed = (now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9;
        if (elapsed >= seconds) break;
        struct epoll_event out;
        int n = epoll_wait(ep, &out, 1, 100);
        if (n <= 0) continue;
        for (;;) {
            for (int i = 0; i < BATCH; i++) {
                iov[i].iov_base = bufs[i];
                iov[i].iov_len = SLOT;
                memset(&msgs[i].msg_hdr, 0, sizeof msgs[i].msg_hdr);
                msgs[i].msg_hdr.msg_iov = &iov[i];
                msgs[i].msg_hdr.msg_iovlen = 1;
                msgs[i].msg_hdr.msg_name = &names[i];
                msgs[i].msg_hdr.msg_namelen = sizeof names[i];
                msgs[i].msg_hdr.msg_control = controls[i];
                msgs[i].msg_hdr.msg_controllen = sizeof controls[i];
            }
            int got = recvmmsg(fd, msgs, BATCH, MSG_DONTWAIT, NULL);
            if (got <= 0) break;
            packets += got;
            for (int i = 0; i < got; i++) bytes += msgs[i].msg_len;
            // The newest drop counter rides on the last message's control data.
            struct msghdr *h = &msgs[got - 1].msg_hdr;
            for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR(h, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) memcpy(&drops, CMSG_DATA(c), sizeof drops);
            if (got < BATCH) break;
        }
    }
    printf("packets %llu bytes %llu kernel_drops %u\n", packets, bytes, drops);
    return 0;
}
