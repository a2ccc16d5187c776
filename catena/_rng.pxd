# xoshiro256** (Blackman and Vigna, 2018): a small, fast generator whose state is
# plain C data, so every playout and search thread owns one and needs no GIL.

from libc.stdint cimport uint32_t, uint64_t
from catena._common cimport splitmix64

ctypedef struct Rng:
    uint64_t s[4]


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    cdef uint64_t* s = rng.s
    cdef uint64_t result = _rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


cdef inline uint32_t rng_below(Rng* rng, uint32_t n) noexcept nogil:
    """A number in [0, n), by Lemire's multiply-shift (bias below 2**-32 * n)."""
    return <uint32_t>(((rng_next(rng) >> 32) * <uint64_t>n) >> 32)


cdef inline double rng_unit(Rng* rng) noexcept nogil:
    """A double in [0, 1)."""
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef inline void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    """Fill the state from one 64-bit seed with splitmix64, as the authors advise."""
    cdef int i
    for i in range(4):
        rng.s[i] = splitmix64(&seed)
