/**
 * The rendering edge: PNG images of boards, threats and subgoal mnemonics. It imports the
 * core and canvas; the core never imports it.
 */
export { registerBoardFonts, BOARD_FONTS, FONTS_DIR } from './fonts.ts';
export { renderBoard, renderThreats, type RenderOptions } from './board.ts';
export { renderMnemonic, renderMnemonicSheet, mnemonicBox, mnemonicLayout, type MnemonicItem, type MnemonicOptions } from './mnemonic.ts';
export { boardLayout, cropLayout, pointToPixel, starPoints, coordinateLabels, type Layout, type Box, type Pixel } from './layout.ts';
export { defaultTheme, type Theme } from './theme.ts';
export { encodePng } from './paint.ts';
export { legendLayout, renderThreatsWithLegend, type LegendLabels, type LegendLayout } from './legend.ts';
export { heatColour, heatFromScores, renderHeatMap, type HeatOptions, type HeatPoint } from './heat.ts';
export { renderReplay, replayDelays, replayLayout, type ReplayMark, type ReplaySnapshot } from './gif.ts';
export { renderLineChart, lineChartPixel, chartRange, drawLegend, LINE_CHART, type LegendEntry, type LineChartSpec, type LineSeries } from './lineChart.ts';
