// The view registry: the tab bar shows these in this order. A new view is a
// module exporting {id, title, paper, fields, toRequest, render} (see app.js)
// added to this list.

import torus from './torus.js';
import nonlinear from './nonlinear.js';

export const views = [torus, nonlinear];
