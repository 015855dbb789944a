// The view registry: the tab bar shows these in this order (the first is the
// page without a #hash). A new view is a
// module exporting {id, title, paper, fields, toRequest, render} (see ../README.md, "Adding a view")
// added to this list.

import buffers from './buffers.js';
import torus from './torus.js';
import memory from './memory.js';
import isoefficiency from './isoefficiency.js';
import nonlinear from './nonlinear.js';
import hetero from './hetero.js';

// The five papers in their order, then the model the field starts from.
export const views = [buffers, torus, memory, isoefficiency, nonlinear, hetero];
