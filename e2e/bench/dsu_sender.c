/*
 * A minimal DSU (cemuhook, protocol 1001) server for benchmarks: waits on 127.0.0.1:PORT
 * for the first pad-data subscription, then sends pad data for SLOTS slots at RATE Hz
 * each for SECONDS seconds (absolute schedule, CLOCK_MONOTONIC), a constant yaw of
 * 30 deg/s, the motion timestamp = CLOCK_MONOTONIC in microseconds at the send (so a
 * host on this machine can measure the one-way latency). Loopback only; bounded.
 * Prints one line: packets sent, elapsed, achieved rate, worst lateness.
 *
 *   cc -O2 -o dsu_sender e2e/bench/dsu_sender.c -lz
 *   ./dsu_sender PORT SLOTS RATE SECONDS
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void put16(uint8_t *p, uint16_t v) { p[0] = v; p[1] = v >> 8; }
static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = v >> (8 * i); }
static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = v >> (8 * i); }
static void putf(uint8_t *p, float f) { uint32_t v; memcpy(&v, &f, 4); put32(p, v); }

/* The 100-byte pad-data reply, offsets as in docs/DSU.md. */
static void pad_data(uint8_t *b, uint32_t sender, int slot, uint32_t counter, uint64_t micros) {
    memset(b, 0, 100);
    memcpy(b, "DSUS", 4);
    put16(b + 4, 1001);
    put16(b + 6, 100 - 16);
    put32(b + 12, sender);
    put32(b + 16, 0x100002);
    b[20] = slot; b[21] = 2; b[22] = 2; b[23] = 2;                 /* connected, full gyro, BT */
    b[24] = 0x02; b[29] = slot + 1;                                /* MAC 02:00:00:00:00:0N */
    b[30] = 5;                                                     /* battery full */
    b[31] = 1;                                                     /* connected */
    put32(b + 32, counter);
    b[40] = b[41] = b[42] = b[43] = 128;                           /* sticks neutral */
    put64(b + 68, micros);
    putf(b + 76, 0); putf(b + 80, -1); putf(b + 84, 0);            /* lying flat */
    putf(b + 88, 0); putf(b + 92, 30); putf(b + 96, 0);            /* yaw right 30 deg/s */
    put32(b + 8, (uint32_t)crc32(0, b, 100));
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: dsu_sender PORT SLOTS RATE SECONDS\n"); return 2; }
    int port = atoi(argv[1]), slots = atoi(argv[2]);
    double rate = atof(argv[3]), seconds = atof(argv[4]);
    if (port <= 0 || port > 65535 || slots < 1 || slots > 4 || rate <= 0 || rate > 10000 || seconds <= 0 || seconds > 120) {
        fprintf(stderr, "dsu_sender: PORT 1-65535, SLOTS 1-4, RATE (0, 10000], SECONDS (0, 120]\n");
        return 2;
    }
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(port) };
    inet_pton(AF_INET, "127.0.0.1", &me.sin_addr);
    if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof me) != 0) { perror("dsu_sender: bind"); return 1; }
    struct timeval tv = { .tv_sec = 10 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    /* Wait for a client's pad-data request (type 0x100002 from "DSUC"). */
    struct sockaddr_in client;
    socklen_t len = sizeof client;
    uint8_t in[2048];
    for (;;) {
        ssize_t n = recvfrom(fd, in, sizeof in, 0, (struct sockaddr *)&client, &len);
        if (n < 0) { fprintf(stderr, "dsu_sender: no subscription within 10 s\n"); return 1; }
        if (n >= 20 && memcmp(in, "DSUC", 4) == 0 && in[16] == 0x02 && in[17] == 0 && in[18] == 0x10) break;
        len = sizeof client;
    }
    uint32_t sender = (uint32_t)now_ns() | 1, counters[4] = {0};
    uint8_t packet[100];
    uint64_t interval = (uint64_t)(1e9 / rate), start = now_ns(), end = start + (uint64_t)(seconds * 1e9);
    uint64_t worst_late = 0, sent = 0, errors = 0;
    for (uint64_t k = 0;; k++) {
        uint64_t due = start + k * interval;
        if (due >= end) break;
        struct timespec ts = { .tv_sec = due / 1000000000ull, .tv_nsec = due % 1000000000ull };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        uint64_t t = now_ns();
        if (t - due > worst_late) worst_late = t - due;
        for (int s = 0; s < slots; s++) {
            pad_data(packet, sender, s, ++counters[s], now_ns() / 1000);
            if (sendto(fd, packet, sizeof packet, 0, (struct sockaddr *)&client, sizeof client) == sizeof packet) sent++;
            else errors++;
        }
    }
    double elapsed = (now_ns() - start) / 1e9;
    printf("dsu_sender: sent %llu packets (%d slots) in %.3f s = %.0f packets/s, %llu send errors, worst lateness %.3f ms\n",
           (unsigned long long)sent, slots, elapsed, sent / elapsed, (unsigned long long)errors, worst_late / 1e6);
    close(fd);
    return 0;
}
