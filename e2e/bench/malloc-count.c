// Counts allocations for the in-process core benchmark (remotion-core-bench): loaded
// with LD_PRELOAD, it forwards to glibc's allocator and counts every malloc, calloc,
// realloc and posix_memalign/aligned_alloc; the benchmark reads the count through
// remotion_malloc_count() (found with dlsym, so the benchmark runs without it too).
// A process that cannot read it (the host under scripts/bench.sh's COUNT_ALLOCS=1) gets
// MALLOC_COUNT_FILE=PREFIX: at its exit the count is written to PREFIX.PID (one file per
// process, so a child that inherits the preload cannot overwrite its parent's count).
//   cc -O2 -shared -fPIC -o malloc-count.so e2e/bench/malloc-count.c
#define _GNU_SOURCE
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static atomic_ulong count;

unsigned long remotion_malloc_count(void) { return atomic_load_explicit(&count, memory_order_relaxed); }

void *malloc(size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_realloc(p, n); }
void *aligned_alloc(size_t a, size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_memalign(a, n); }
void *memalign(size_t a, size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    void *p = __libc_memalign(a, n);
    if (!p) return 12;
    *out = p;
    return 0;
}
void free(void *p) { __libc_free(p); }

__attribute__((destructor)) static void write_count_at_exit(void) {
    const char *prefix = getenv("MALLOC_COUNT_FILE");
    if (!prefix) return;
    unsigned long n = remotion_malloc_count();   // before the writing below allocates
    char path[4096];
    if (snprintf(path, sizeof path, "%s.%ld", prefix, (long)getpid()) >= (int)sizeof path) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "%lu\n", n);
    fclose(f);
}
