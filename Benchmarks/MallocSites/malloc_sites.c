// An LD_PRELOAD library that counts heap allocations by call stack, for Benchmarks/trace-mallocs.sh.
//
// Every malloc, calloc, realloc and posix_memalign is counted under a hash of its return addresses; at exit
// the sites are written to $MALLOC_SITES_OUT ("SITE count" and then one backtrace_symbols line per frame).
// Nothing is printed when the variable is unset. Counting only: the allocation itself is the C library's.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEPTH 16       // return addresses kept per site (after this library's own two frames)
#define SLOTS 65536    // open-addressing table of sites; a program with more distinct stacks loses the rest
#define BOOT_BYTES (1 << 16)  // calloc's answers while dlsym itself allocates, before the real one is known

struct site { uint64_t hash; unsigned long count; int depth; void *pc[DEPTH]; };
static struct site sites[SLOTS];
static __thread int inside;
static char boot[BOOT_BYTES];
static size_t boot_used;

static void count_site(void) {
    if (inside) return;  // backtrace() may allocate on its first call
    inside = 1;
    void *pc[DEPTH + 2];
    int depth = backtrace(pc, DEPTH + 2) - 2;
    if (depth < 0) depth = 0;
    uint64_t hash = 1469598103934665603ULL;  // FNV-1a over the addresses
    for (int i = 0; i < depth; i++) { hash ^= (uint64_t)(uintptr_t)pc[i + 2]; hash *= 1099511628211ULL; }
    for (unsigned probe = 0, i = hash % SLOTS; probe < SLOTS; probe++, i = (i + 1) % SLOTS) {
        if (sites[i].count == 0) {
            sites[i].hash = hash;
            sites[i].depth = depth;
            memcpy(sites[i].pc, pc + 2, (size_t)depth * sizeof(void *));
        } else if (sites[i].hash != hash) {
            continue;
        }
        __atomic_add_fetch(&sites[i].count, 1, __ATOMIC_RELAXED);
        break;
    }
    inside = 0;
}

void *malloc(size_t size) {
    static void *(*real)(size_t);
    if (!real) real = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    count_site();
    return real(size);
}

void *calloc(size_t n, size_t size) {
    static void *(*real)(size_t, size_t);
    if (!real) {
        size_t bytes = (n * size + 15) & ~(size_t)15;
        if (boot_used + bytes <= BOOT_BYTES) {  // dlsym's own allocations, zeroed as calloc's are
            void *p = boot + boot_used;
            boot_used += bytes;
            return p;
        }
        real = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    }
    count_site();
    return real(n, size);
}

void *realloc(void *p, size_t size) {
    static void *(*real)(void *, size_t);
    if (!real) real = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    count_site();
    return real(p, size);
}

int posix_memalign(void **p, size_t alignment, size_t size) {
    static int (*real)(void **, size_t, size_t);
    if (!real) real = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    count_site();
    return real(p, alignment, size);
}

void free(void *p) {
    static void (*real)(void *);
    if ((char *)p >= boot && (char *)p < boot + BOOT_BYTES) return;
    if (!real) real = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    real(p);
}

__attribute__((destructor)) static void write_sites(void) {
    inside = 1;
    const char *path = getenv("MALLOC_SITES_OUT");
    if (!path) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    for (int i = 0; i < SLOTS; i++) {
        if (!sites[i].count) continue;
        fprintf(f, "SITE %lu\n", sites[i].count);
        char **names = backtrace_symbols(sites[i].pc, sites[i].depth);
        for (int k = 0; k < sites[i].depth; k++) fprintf(f, "  %s\n", names ? names[k] : "?");
    }
    fclose(f);
}
