#include "app/report/report_style.hpp"

namespace spotsim {

std::string report_css() {
  return R"CSS(
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #222; margin: 0;
       background: #fff; line-height: 1.4; }
header { background: #0b3d5c; color: #fff; padding: 14px 28px; }
header h1 { font-size: 20px; margin: 0; word-break: break-all; }
.subtitle { margin: 4px 0 0; opacity: 0.85; font-size: 14px; }
main { padding: 8px 28px 40px; max-width: 1180px; }
h2 { font-size: 17px; border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: 28px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 4px 8px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
thead th { background: #f4f6f8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.ci { color: #666; font-size: 12px; }
.note { color: #555; font-size: 13px; }
figure { margin: 8px 0; display: inline-block; }
figcaption { font-size: 13px; color: #333; font-weight: 600; }
.pair { display: flex; flex-wrap: wrap; gap: 8px; }
.pair svg { width: 560px; height: auto; }
svg { max-width: 100%; height: auto; font-size: 12px; }
svg .grid { stroke: #e6e6e6; stroke-width: 1; }
svg .plot { fill: none; stroke: #888; }
svg .tick { fill: #444; font-size: 11px; }
svg .axis-title { fill: #222; font-size: 12px; }
svg .frontier { fill: none; stroke: #555; stroke-dasharray: 5 4; stroke-width: 1.5; }
svg .point .error { stroke: currentColor; stroke-width: 1.5; }
svg .point .mark { fill: currentColor; stroke: #fff; stroke-width: 1; }
svg .cdf { fill: none; stroke-width: 2; }
svg .run-label { font-weight: 600; fill: #222; }
svg .run-note { fill: #555; font-size: 11px; }
svg .zone { fill: #fff; font-size: 10px; pointer-events: none; }
svg .mark-checkpoint { stroke: #222; stroke-width: 1; }
svg .mark-transfer { fill: #CC79A7; }
ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 13px; }
.swatch { display: inline-block; width: 14px; height: 14px; border-radius: 2px; margin-right: 6px; vertical-align: -2px; }
.glyph { display: inline-block; width: 14px; margin-right: 6px; text-align: center; }
.barcell { width: 240px; }
.bar { height: 12px; background: #0072B2; border-radius: 2px; }
pre { background: #f6f8fa; padding: 10px; font-size: 12px; overflow-x: auto; max-height: 420px; }
code { background: #f2f2f2; padding: 1px 4px; border-radius: 3px; }
)CSS";
}

}  // namespace spotsim
