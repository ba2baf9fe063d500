package stats

import (
	"math"
	"math/rand/v2"
)

// sampler draws the random variates the bootstrap needs from a PCG stream.
// Only the PCG source comes from math/rand/v2; the variates are derived
// here so that a seed gives the same numbers whatever the Go release.
type sampler struct {
	src *rand.PCG
}

// newSampler returns a sampler seeded with seed. The second PCG word is a
// fixed constant so that one uint64 is the whole seed.
func newSampler(seed uint64) *sampler {
	return &sampler{src: rand.NewPCG(seed, 0x9e3779b97f4a7c15)}
}

// uniform returns a float64 in the open interval (0, 1).
func (s *sampler) uniform() float64 {
	return (float64(s.src.Uint64()>>11) + 0.5) / (1 << 53)
}

// normal returns a standard normal variate (Box–Muller, one of the pair).
func (s *sampler) normal() float64 {
	u, v := s.uniform(), s.uniform()
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*v)
}

// gamma returns a Gamma(shape, 1) variate for shape ≥ 1 by Marsaglia and
// Tsang (2000), "A simple method for generating gamma variables", ACM
// TOMS 26(3):363–372.
func (s *sampler) gamma(shape float64) float64 {
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := s.normal()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := s.uniform()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// beta returns a Beta(a, b) variate for a, b ≥ 1.
func (s *sampler) beta(a, b float64) float64 {
	x := s.gamma(a)
	return x / (x + s.gamma(b))
}

// resampledQuantile returns the type-7 q-quantile of one bootstrap
// resample (n draws with replacement) of the sorted slice xs, without
// drawing the resample.
//
// A resample is n indices ⌊n·Uᵢ⌋ with Uᵢ uniform, so its k-th smallest
// index is ⌊n·U₍ₖ₎⌋, and the k-th uniform order statistic U₍ₖ₎ is
// Beta(k, n−k+1). The next one is U₍ₖ₎ plus the minimum of the n−k
// uniforms above it: U₍ₖ₊₁₎ = U₍ₖ₎ + (1−U₍ₖ₎)·(1 − V^(1/(n−k))). Two
// order statistics are all a type-7 quantile needs, so one bootstrap
// replicate costs O(1) instead of O(n) draws and a sort.
func (s *sampler) resampledQuantile(xs []float64, q float64) float64 {
	n := len(xs)
	h := float64(n-1) * q
	j := int(h) // 0-based lower order statistic; k = j+1 is 1-based
	k := j + 1
	uk := s.beta(float64(k), float64(n-k+1))
	lo := xs[index(uk, n)]
	frac := h - float64(j)
	if frac == 0 || k >= n {
		return lo
	}
	next := uk + (1-uk)*(1-math.Pow(s.uniform(), 1/float64(n-k)))
	return lo + frac*(xs[index(next, n)]-lo)
}

// index maps a uniform u in (0, 1) to a resample index in [0, n).
func index(u float64, n int) int {
	return min(int(u*float64(n)), n-1)
}
