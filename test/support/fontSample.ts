// What the board font is tested on: a board with coordinates and bold move numbers, and a
// mnemonic sheet, whose titles are in the mono face — every face of assets/fonts.
import { renderBoard, renderMnemonicSheet } from '../../src/render/index.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../../src/rules/types.ts';

export function fontSample(): Buffer {
  const size = 15;
  const cells = new Array<Cell>(size * size).fill(EMPTY);
  const moveNumbers = new Array<number>(size * size).fill(0);
  [112, 113, 97, 128, 111].forEach((p, i) => {
    cells[p] = i % 2 === 0 ? BLACK : WHITE;
    moveNumbers[p] = [1, 2, 3, 47, 125][i];
  });
  const board = renderBoard({ size, cells, moveNumbers }, { showMoveNumbers: true });
  const sheet = renderMnemonicSheet([{ title: "(1, 1) 3:3', 3'", snapshot: { size, cells }, overlay: { colour: 'black', nodes: [112], implicit: [] } }]);
  return Buffer.concat([board, sheet]);
}
