//! The scattering of 001's reference [4], which Fig. 8 compares with
//! Peters-Syska's: data go to the nearest idle nodes, so the nodes
//! activated in one phase form a wave front, and [4] treats every node of a
//! layer alike.
//!
//! What is implemented: with 4 ports a node reaches its four neighbours, so
//! phase j activates the nodes j links from the originator (torus distance
//! |dx| + |dy|, each coordinate taken the short way round): a diamond,
//! 001's "rectangular layer" turned by 45 degrees. Its edge nodes have two
//! neighbours in the layer before and its corners one, as the paper says
//! of [4]'s layers. On the 5^k x 5^k torus (side n = 2m + 1) layer j has
//! 4j nodes for j <= m; beyond, the front wraps round and layer j has
//! 4(n - j) nodes, the last (j = 2m = n - 1) four. Only the front relays:
//! layer j - 1 sends layer j all that layers j.. compute, each of layer
//! j's nodes an equal share.

use super::activation::Activation;
use alloc::vec;

/// The last layer: 5^k - 1 links from the originator.
pub fn max_layer(k: usize) -> usize {
    5usize.pow(k as u32) - 1
}

/// Nodes of layer j on the 5^k x 5^k torus.
pub fn layer_size(k: usize, j: usize) -> f64 {
    let n = 5usize.pow(k as u32);
    let m = n / 2;
    match j {
        0 => 1.0,
        j if j <= m => (4 * j) as f64,
        j if j < n => (4 * (n - j)) as f64,
        _ => 0.0,
    }
}

/// Largest k drawn: the map's phases are bytes (5^3 - 1 = 124 layers).
pub const MAP_MAX_K: usize = 3;

/// The wave front's activation map: each cell's distance from the centre,
/// its parent the neighbour one link nearer (along x first).
pub fn activation(k: usize) -> Activation {
    let size = 5usize.pow(k as u32);
    let m = (size / 2) as i64;
    let mut phase = vec![0u8; size * size];
    let mut parent = vec![-1i64; size * size];
    let index = |dx: i64, dy: i64| ((dy + m) as usize) * size + (dx + m) as usize;
    for dy in -m..=m {
        for dx in -m..=m {
            let cell = index(dx, dy);
            phase[cell] = (dx.abs() + dy.abs()) as u8;
            if dx != 0 {
                parent[cell] = index(dx - dx.signum(), dy) as i64;
            } else if dy != 0 {
                parent[cell] = index(dx, dy - dy.signum()) as i64;
            }
        }
    }
    Activation { size, phase, parent }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn layers_count_the_nodes_at_each_torus_distance() {
        for k in 1..=3 {
            let n = 5i64.pow(k as u32);
            let mut count = vec![0.0; max_layer(k) + 1];
            for x in 0..n {
                for y in 0..n {
                    let d = |c: i64| c.min(n - c);
                    count[(d(x) + d(y)) as usize] += 1.0;
                }
            }
            for (j, &c) in count.iter().enumerate() {
                assert_eq!(layer_size(k, j), c, "k={k} layer {j}");
            }
            let map = activation(k);
            for (cell, &p) in map.phase.iter().enumerate() {
                if p > 0 {
                    assert_eq!(map.phase[map.parent[cell] as usize] + 1, p);
                }
            }
        }
        assert_eq!((1..=4).map(|j| layer_size(1, j)).collect::<Vec<_>>(), [4.0, 8.0, 8.0, 4.0]);
    }
}
