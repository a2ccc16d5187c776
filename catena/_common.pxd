# Small pieces the core modules share: the monotonic clock, splitmix64 (Steele,
# Lea and Flood, 2014) and the move index that stands for no move.  All inline,
# so every module that cimports them compiles its own copy of a few instructions.

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #include <time.h>
    /* Linux: POSIX's monotonic clock.  A portable build (CATENA_PORTABLE; macOS and Windows
       always) and any other system: C11's timespec_get, the calendar clock, so there a
       deadline moves if the system's time is set while it runs. */
    static inline double catena_clock_seconds(void) {
        struct timespec ts;
    #if !defined(CATENA_PORTABLE) && defined(__linux__)
        clock_gettime(CLOCK_MONOTONIC, &ts);
    #else
        timespec_get(&ts, TIME_UTC);
    #endif
        return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    }
    """
    double catena_clock_seconds() noexcept nogil

cdef enum:
    NO_MOVE = 0x1FF          # no move: above every move index (< 272), and fits the
                             # solver table's 9-bit move field


cdef inline double monotonic_seconds() noexcept nogil:
    """Seconds on the monotonic clock: for deadlines (never jumps with the wall clock, except
    in a portable build: see catena_clock_seconds)."""
    return catena_clock_seconds()


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """splitmix64's finaliser: a bijective scrambling of 64 bits."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    """The next number of the splitmix64 sequence at ``state`` (advanced)."""
    state[0] += 0x9E3779B97F4A7C15ULL
    return mix64(state[0])
