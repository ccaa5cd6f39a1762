// A child process for test/render/fonts.test.ts: draws with the renderer (`board`), or writes
// text with node-canvas alone (`text`, which never loads the board font), and prints the PNG
// as base64, so the test can compare what two machines' worth of fonts draw.
import { createCanvas } from 'canvas';

const what = process.argv[2];
if (what === 'board') {
  const { fontSample } = await import('./fontSample.ts');
  process.stdout.write(fontSample().toString('base64'));
} else {
  const canvas = createCanvas(160, 40);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 160, 40);
  ctx.fillStyle = '#000000';
  ctx.font = '20px "DejaVu Sans"';
  ctx.fillText('a19 k7 12', 4, 28);
  process.stdout.write(canvas.toBuffer('image/png').toString('base64'));
}
