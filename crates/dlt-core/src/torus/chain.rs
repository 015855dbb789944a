//! The equations of the extended torus model, solved exactly.
//!
//! The scattering is a chain of receiver classes c_1, ..., c_M in the order
//! their messages end (c_0 the originator): all processors of a class are
//! activated together and alike. Under 4 ports a class is a layer (Fig. 2);
//! with 1 or 2 ports a transmitter sends its four messages of a phase in
//! 4/ports slots one after the other, and class (q, j) holds the receivers
//! of slot j of phase q. Phases stay synchronous as in Fig. 2: phase q
//! starts when phase q - 1's last slot has ended, and in slot j every
//! transmitter sends the same message, so the receivers of a slot are
//! alike and a phase has 4/ports classes, not one per receiver (the
//! asynchronous 1-port scattering of Sec. 5, where a node starts its next
//! phase as soon as its own sends end, makes every node a class of its own,
//! 5^(2k) equations). Slot j's message ends at
//!   t_j = t_(j-1) + d_j,   d_j = h_j (S + C w_j)            (1')
//! (h_j: links passed under store-and-forward, else 1; w_j: the message,
//! the class's own load and its descendants'). With results returned
//! (Fig. 9), class j sends r w_j of results back the same way when it has
//! computed, lasting u_j = h_j (S + C r w_j), and the classes finish in the
//! reverse order, E_(j-1) = E_j + u_j, so each parent hears from one slot
//! at a time. Computing from t_j to E_j takes f_j(x_j) = (A / s_j) x_j^gamma,
//! so with E_j - t_j = f_j(x_j)
//!   f_(j-1)(x_(j-1)) = f_j(x_j) + d_j + u_j,                 (1'')
//! 001's "computation on the transmitter lasts as long as sending to,
//! computing on and receiving results from the receiver", for every pair of
//! consecutive classes. With 4 ports, circuits, no results, gamma 1 and
//! equal speeds it is system (1) itself.
//!
//! (1'') gives every x_j from the deeper ones, from x_M up, as the paper's
//! (2) does. For gamma 1 each x_j is affine in x_M, carried exactly as a
//! pair (coefficient, constant), and the normalisation (all load computed,
//! V) gives x_M as (3) does. For gamma > 1 the total is increasing in x_M
//! and x_M is found by bisection to adjacent floating-point numbers.

use super::options::Options;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::{Add, Mul};

/// One class of receivers (index 0 is the originator).
#[derive(Debug, Clone, PartialEq)]
pub struct Class {
    pub layer: usize,
    /// Position of the class's slot in its phase, from 1.
    pub slot: usize,
    pub count: f64,
    /// Links a message into the class passes (store-and-forward).
    pub hops: f64,
    /// Computing time per unit^gamma: A / speed.
    pub a: f64,
}

/// The classes of `n` phases, in the order their messages end.
pub fn classes(o: &Options, k: usize, n: usize, a: f64) -> Vec<Class> {
    let mut cls = vec![Class { layer: 0, slot: 1, count: 1.0, hops: 1.0, a: a / o.speed(0) }];
    for q in 1..=n {
        if o.wavefront {
            cls.push(Class { layer: q, slot: 1, count: super::wavefront::layer_size(k, q), hops: 1.0, a: a / o.speed(q) });
            continue;
        }
        for slot in 1..=o.slots() {
            // All 5^(q-1) active nodes send `ports` messages in the slot.
            let count = libm::pow(5.0, (q - 1) as f64) * o.ports as f64;
            cls.push(Class { layer: q, slot, count, hops: o.hops(k, q), a: a / o.speed(q) });
        }
    }
    cls
}

/// The request's numbers the equations use.
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    pub s: f64,
    pub c: f64,
    pub v: f64,
    pub gamma: f64,
    pub ret: f64,
    pub ports: f64,
    pub wavefront: bool,
}

impl Setup {
    pub fn new(o: &Options, s: f64, c: f64, v: f64) -> Self {
        Setup { s, c, v, gamma: o.gamma, ret: o.return_ratio, ports: o.ports as f64, wavefront: o.wavefront }
    }

    /// f_j(x): computing time.
    pub fn time(&self, cl: &Class, x: f64) -> f64 {
        if self.gamma == 1.0 { cl.a * x } else { cl.a * libm::pow(x, self.gamma) }
    }

    /// d_j: the message into the class.
    pub fn send(&self, cl: &Class, w: f64) -> f64 {
        cl.hops * (self.s + self.c * w)
    }

    /// u_j: its results back, 0 without results.
    pub fn back(&self, cl: &Class, w: f64) -> f64 {
        if self.ret > 0.0 { cl.hops * (self.s + self.c * self.ret * w) } else { 0.0 }
    }
}

/// A number the upward pass works in: f64, or an affine function of x_M.
trait Num: Copy + Add<Output = Self> + Mul<f64, Output = Self> {
    fn constant(x: f64) -> Self;
}

impl Num for f64 {
    fn constant(x: f64) -> Self {
        x
    }
}

/// a x_M + b.
#[derive(Debug, Clone, Copy)]
struct Affine {
    a: f64,
    b: f64,
}

impl Add for Affine {
    type Output = Affine;
    fn add(self, o: Affine) -> Affine {
        Affine { a: self.a + o.a, b: self.b + o.b }
    }
}

impl Mul<f64> for Affine {
    type Output = Affine;
    fn mul(self, k: f64) -> Affine {
        Affine { a: self.a * k, b: self.b * k }
    }
}

impl Num for Affine {
    fn constant(x: f64) -> Self {
        Affine { a: 0.0, b: x }
    }
}

/// Loads, messages and the total computed, from x_M = z up by (1'').
/// `load(class, time)` inverts f_j; `time(class, load)` is f_j.
fn upward<T: Num>(cls: &[Class], st: &Setup, z: T, load: impl Fn(&Class, T) -> T, time: impl Fn(&Class, T) -> T) -> (Vec<T>, Vec<T>, T) {
    let last = cls.len() - 1;
    let zero = T::constant(0.0);
    let (mut x, mut msg) = (vec![zero; cls.len()], vec![zero; cls.len()]);
    x[last] = z;
    if last == 0 {
        msg[0] = z;
        return (x, msg, z);
    }
    let mut tau = time(&cls[last], z);
    // Peters-Syska: a node's descendants are `ports` receivers in every
    // slot of every later phase; `deeper` sums the messages of the layers
    // below the current one, `layer_sum` the current layer's so far.
    let (mut deeper, mut layer_sum, mut layer) = (zero, zero, cls[last].layer);
    // Wave front: all that the layers below the current one compute.
    let mut rest = zero;
    for m in (1..=last).rev() {
        let cl = &cls[m];
        if m < last {
            x[m] = load(cl, tau);
        }
        let w = if st.wavefront {
            let w = x[m] + rest * (1.0 / cl.count);
            rest = rest + x[m] * cl.count;
            w
        } else {
            if cl.layer != layer {
                deeper = deeper + layer_sum;
                layer_sum = zero;
                layer = cl.layer;
            }
            let w = x[m] + deeper * st.ports;
            layer_sum = layer_sum + w;
            w
        };
        msg[m] = w;
        tau = tau + w * (cl.hops * st.c) + T::constant(cl.hops * st.s);
        if st.ret > 0.0 {
            tau = tau + w * (cl.hops * st.c * st.ret) + T::constant(cl.hops * st.s);
        }
    }
    x[0] = load(&cls[0], tau);
    let total = if st.wavefront { x[0] + rest } else { x[0] + (deeper + layer_sum) * st.ports };
    msg[0] = total;
    (x, msg, total)
}

/// Loads and messages of the classes, and the bisection's iterations.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    pub x: Vec<f64>,
    pub msg: Vec<f64>,
    pub iterations: usize,
}

/// The most bisection steps: f64 resolves [0, V] in fewer.
const MAX_ITERATIONS: usize = 2200;

/// The loads that make all classes finish by (1''), or `None` where some
/// class would get no positive load (infeasible, as a_N <= 0 in (3)).
pub fn solve(cls: &[Class], st: &Setup) -> Option<Solution> {
    let sol = if st.gamma == 1.0 {
        let (x, msg, total) = upward(cls, st, Affine { a: 1.0, b: 0.0 }, |cl, t| t * (1.0 / cl.a), |cl, l| l * cl.a);
        let z = (st.v - total.b) / total.a;
        let at = |p: &Affine| p.a * z + p.b;
        Solution { x: x.iter().map(at).collect(), msg: msg.iter().map(at).collect(), iterations: 0 }
    } else {
        let g = st.gamma;
        let run = |z: f64| upward(cls, st, z, |cl, t: f64| libm::pow(t / cl.a, 1.0 / g), |cl, l: f64| cl.a * libm::pow(l, g));
        if run(0.0).2 >= st.v {
            return None;
        }
        // total(0) < V <= total(V): the last class alone could take V.
        let (mut lo, mut hi, mut iterations) = (0.0, st.v, 0);
        while iterations < MAX_ITERATIONS {
            let mid = lo + (hi - lo) / 2.0;
            if mid <= lo || mid >= hi {
                break;
            }
            iterations += 1;
            if run(mid).2 < st.v { lo = mid } else { hi = mid }
        }
        let z = if (run(lo).2 - st.v).abs() < (run(hi).2 - st.v).abs() { lo } else { hi };
        let (x, msg, _) = run(z);
        Solution { x, msg, iterations }
    };
    sol.x.iter().chain(&sol.msg).all(|&y| y > 0.0 && y.is_finite()).then_some(sol)
}

/// When each class's message ends, its computing ends and its results
/// arrive (its computing end without results).
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    pub activated: Vec<f64>,
    pub computed: Vec<f64>,
    pub returned: Vec<f64>,
    pub makespan: f64,
}

/// (1') forward from the loads and messages (rounded or not).
pub fn timing(cls: &[Class], st: &Setup, x: &[f64], msg: &[f64]) -> Timing {
    let mut t = vec![0.0; cls.len()];
    for m in 1..cls.len() {
        t[m] = t[m - 1] + st.send(&cls[m], msg[m]);
    }
    let computed: Vec<f64> = (0..cls.len()).map(|m| t[m] + st.time(&cls[m], x[m])).collect();
    let returned: Vec<f64> = (0..cls.len()).map(|m| if m == 0 { computed[0] } else { computed[m] + st.back(&cls[m], msg[m]) }).collect();
    let makespan = returned.iter().chain(&computed).copied().fold(0.0, f64::max);
    Timing { activated: t, computed, returned, makespan }
}

/// Messages rounded up to multiples of g from the deepest class up, each
/// class's load what its message leaves after its descendants' rounded
/// messages, and the originator the rest of V. So every message and every
/// load grows by less than g: Sec. 5's premise for its bound. `Err` names
/// the first class left a negative load.
pub fn round(cls: &[Class], st: &Setup, msg: &[f64], g: f64) -> Result<(Vec<f64>, Vec<f64>), usize> {
    let last = cls.len() - 1;
    let (mut x, mut w) = (vec![0.0; cls.len()], vec![0.0; cls.len()]);
    let (mut deeper, mut layer_sum, mut layer) = (0.0, 0.0, cls[last].layer);
    for m in (1..=last).rev() {
        if cls[m].layer != layer {
            deeper += layer_sum;
            layer_sum = 0.0;
            layer = cls[m].layer;
        }
        w[m] = libm::ceil(msg[m] / g) * g;
        x[m] = w[m] - st.ports * deeper;
        layer_sum += w[m];
    }
    x[0] = st.v - st.ports * (deeper + layer_sum);
    w[0] = st.v;
    match x.iter().position(|&y| y < 0.0 || y.is_nan()) {
        Some(m) => Err(m),
        None => Ok((x, w)),
    }
}

/// Sec. 5's bound on what rounding adds to the makespan: every message of
/// the chain grows by less than g units, C g per link it passes, and every
/// load by less than g, at most max A/s g of computing.
pub fn rounding_bound(cls: &[Class], st: &Setup, g: f64) -> f64 {
    let comm: f64 = cls.iter().skip(1).map(|cl| cl.hops * st.c * g).sum();
    comm + cls.iter().map(|cl| cl.a * g).fold(0.0, f64::max)
}
