// The X pointer as the witness (scripts/web-transport-test.sh): samples XQueryPointer every
// 2 ms and prints "<CLOCK_MONOTONIC ms> <x> <y>" whenever the position changed, until
// stdin closes or it is killed. Prints "ready" once the display answers.
//   cc -O2 e2e/web/pointer_sampler.c -lX11 -o sampler; DISPLAY=:N ./sampler
#include <X11/Xlib.h>
#include <poll.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(void) {
    Display *d = XOpenDisplay(NULL);
    if (!d) { fprintf(stderr, "pointer_sampler: cannot open the display\n"); return 1; }
    Window root = XDefaultRootWindow(d), r, c;
    int x, y, wx, wy, lx = -1, ly = -1;
    unsigned mask;
    printf("ready\n");
    fflush(stdout);
    for (;;) {
        struct pollfd in = { .fd = 0, .events = POLLIN };
        if (poll(&in, 1, 0) > 0) {
            char b[64];
            if (read(0, b, sizeof b) <= 0) break;
        }
        if (XQueryPointer(d, root, &r, &c, &x, &y, &wx, &wy, &mask) && (x != lx || y != ly)) {
            printf("%.3f %d %d\n", now_ms(), x, y);
            fflush(stdout);
            lx = x; ly = y;
        }
        struct timespec two = { 0, 2000000 };
        nanosleep(&two, NULL);
    }
    return 0;
}
