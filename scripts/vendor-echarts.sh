#!/usr/bin/env bash
# Builds the page's copy of Apache ECharts, www/vendor/echarts/echarts.custom.min.js:
# ECharts' own "custom build" (echarts/core and the parts named below, as
# its documentation describes), bundled and minified by esbuild into one ES
# module. Only the charts and components the page draws with: 726 KB
# (245 KB gzipped) where the package's full dist/echarts.esm.min.js is
# 1,122 KB (369 KB), fetched, parsed and run by every page that opens. Run it to
# update the version (and update www/vendor/README.md); it needs npm and the
# network, the page does not.
#
#   bash scripts/vendor-echarts.sh
#
# A chart type or component the page starts to use must be added below:
# ECharts ignores an option whose component is not registered.
set -euo pipefail
cd "$(dirname "$0")/.."
ECHARTS=6.1.0
ESBUILD=0.28.2
out=www/vendor/echarts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund "echarts@$ECHARTS" "esbuild@$ESBUILD")
cat > "$tmp/entry.js" <<'EOF'
import { use } from 'echarts/core';
import { LineChart, ScatterChart, BarChart, CustomChart, HeatmapChart } from 'echarts/charts';
import {
  GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, VisualMapComponent,
  MarkLineComponent, MarkAreaComponent, MarkPointComponent, AriaComponent,
} from 'echarts/components';
import { LabelLayout } from 'echarts/features';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';

use([
  LineChart, ScatterChart, BarChart, CustomChart, HeatmapChart,
  GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, VisualMapComponent,
  MarkLineComponent, MarkAreaComponent, MarkPointComponent, AriaComponent,
  LabelLayout, CanvasRenderer, SVGRenderer,
]);
export * from 'echarts/core';
EOF
"$tmp/node_modules/.bin/esbuild" "$tmp/entry.js" --bundle --format=esm --minify --legal-comments=none \
  --define:process.env.NODE_ENV='"production"' --outfile="$out/echarts.custom.min.js" --log-level=warning
cp "$tmp/node_modules/echarts/LICENSE" "$tmp/node_modules/echarts/NOTICE" "$out/"
cp "$tmp/node_modules/echarts/licenses/LICENSE-d3" "$out/LICENSE-d3"
cp "$tmp/node_modules/zrender/LICENSE" "$out/LICENSE-zrender"
echo "vendor-echarts: $out/echarts.custom.min.js, $(stat -c %s "$out/echarts.custom.min.js") bytes, $(gzip -9 -c "$out/echarts.custom.min.js" | wc -c) gzipped (echarts $ECHARTS)"
