//! Which phase activates each cell of the 5^k x 5^k torus, and from where:
//! Peters-Syska scattering as 001 Sec. 3 describes it (Fig. 1 is lost; the
//! pattern is restored in NOTES.md). Step s (f = 5^(k-s)) has a knight phase,
//! f links one way and 2f to the left, then a cross phase, f links in each of
//! the four directions; every active node sends in every phase.

use alloc::vec;
use alloc::vec::Vec;
use serde::{ser::Error as _, Serialize, Serializer};

/// The knight offset with +y as the first direction, and its rotations by
/// 90 degrees.
const KNIGHT: [(i64, i64); 4] = [(-2, 1), (-1, -2), (2, -1), (1, 2)];
const CROSS: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Largest k whose map is produced: 625 x 625 cells.
pub const MAX_K: usize = 4;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Activation {
    /// Side of the torus, 5^k.
    pub size: usize,
    /// Cell (x, y) at index `y * size + x`: the phase that activates it,
    /// 0 for the originator, which sits at the centre of the grid.
    pub phase: Vec<u8>,
    /// Index of the cell that sent to it; -1 for the originator.
    pub parent: Vec<i64>,
}

/// The map a response carries, built only when it is serialized: a sweep
/// that picks other fields never builds it (390,625 cells at k = 4, 42 % of
/// each point of 001 Fig. 8's k = 4 line).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Map {
    PetersSyska(usize),
    Wavefront(usize),
}

impl Map {
    pub fn cells(self) -> Option<Activation> {
        match self {
            Map::PetersSyska(k) => activation(k),
            Map::Wavefront(k) => Some(super::wavefront::activation(k)),
        }
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The pattern tiles every k <= MAX_K (the tests below): a failure
        // here is the core's bug.
        self.cells().ok_or_else(|| S::Error::custom("the Peters-Syska pattern did not tile the torus"))?.serialize(s)
    }
}

/// The activation map of the full 2k-phase scattering. Returns `None` if a
/// cell would be reached twice or never (the pattern is wrong for this k).
pub fn activation(k: usize) -> Option<Activation> {
    let size = 5usize.pow(k as u32);
    let cells = size * size;
    let mut phase = vec![u8::MAX; cells];
    let mut parent = vec![-2i64; cells];
    let centre = (size / 2) * size + size / 2;
    phase[centre] = 0;
    parent[centre] = -1;
    let mut active = vec![centre];
    for step in 1..=k {
        let f = 5i64.pow((k - step) as u32);
        for (half, offsets) in [KNIGHT, CROSS].iter().enumerate() {
            let p = (2 * step - 1 + half) as u8;
            let mut reached = Vec::with_capacity(4 * active.len());
            for &from in &active {
                let (x, y) = ((from % size) as i64, (from / size) as i64);
                for (dx, dy) in offsets {
                    let tx = (x + dx * f).rem_euclid(size as i64) as usize;
                    let ty = (y + dy * f).rem_euclid(size as i64) as usize;
                    let to = ty * size + tx;
                    if phase[to] != u8::MAX {
                        return None;
                    }
                    phase[to] = p;
                    parent[to] = from as i64;
                    reached.push(to);
                }
            }
            active.extend(reached);
        }
    }
    (active.len() == cells).then_some(Activation { size, phase, parent })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_once_with_table1_counts() {
        for k in 1..=3 {
            let a = activation(k).expect("pattern tiles the torus");
            let mut per_phase = vec![0usize; 2 * k + 1];
            for &p in &a.phase {
                per_phase[p as usize] += 1;
            }
            // Table 1: phase i activates 4 * 5^(i-1) nodes.
            assert_eq!(per_phase[0], 1);
            for (i, &n) in per_phase.iter().enumerate().skip(1) {
                assert_eq!(n, 4 * 5usize.pow(i as u32 - 1), "k={k} phase {i}");
            }
            // Every parent was active before its child.
            for (c, &p) in a.parent.iter().enumerate() {
                if p >= 0 {
                    assert!(a.phase[p as usize] < a.phase[c]);
                }
            }
        }
    }

    #[test]
    fn five_by_five_knight_targets_solve_x_plus_2y() {
        // NOTES.md: on the 5x5 torus the originator and its knight targets
        // are the cells with x + 2y = 0 (mod 5), relative to the originator.
        let a = activation(1).unwrap();
        for (c, &p) in a.phase.iter().enumerate() {
            let (x, y) = (c as i64 % 5 - 2, c as i64 / 5 - 2);
            assert_eq!(p <= 1, (x + 2 * y).rem_euclid(5) == 0, "cell ({x},{y}) phase {p}");
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn a_map_is_written_as_its_cells() {
        for (map, cells) in [(Map::PetersSyska(2), activation(2).unwrap()), (Map::Wavefront(2), super::super::wavefront::activation(2))] {
            assert_eq!(serde_json::to_value(map).unwrap(), serde_json::to_value(&cells).unwrap());
            assert_eq!(cells.phase.len(), 625);
        }
    }

    #[test]
    fn four_is_still_drawn() {
        let a = activation(4).unwrap();
        assert_eq!(a.phase.len(), 625 * 625);
    }
}
