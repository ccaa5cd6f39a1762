// Random valid descriptions for property tests, from the seeded generator only.
import type { Description, DescriptionNode, LineSpec, NodeLine } from '../../src/notation/description.ts';
import type { Random } from '../../src/rules/random.ts';

export interface RandomDescriptionOptions {
  readonly minNodes?: number;
  readonly maxNodes?: number;
  /** Most explicit nodes a shared line may hold (the paper's lines hold at most five). */
  readonly maxLineNodes?: number;
  /** Chance that a node carries a comment. */
  readonly commentChance?: number;
}

function randomSpec(rnd: Random): LineSpec {
  return { n: rnd.int(6), dashed: rnd.next() < 0.5 };
}

/**
 * A random structurally valid description: lines are random sets of nodes, each node in at
 * most four lines, no two nodes on two common lines; every node gets at least one line; line
 * order within a node is shuffled; specs and comments are random, a comment no smaller than
 * the fullest pattern allows.
 */
export function randomDescription(rnd: Random, options: RandomDescriptionOptions = {}): Description {
  const minNodes = options.minNodes ?? 1;
  const maxNodes = options.maxNodes ?? 6;
  const maxLineNodes = options.maxLineNodes ?? 4;
  const commentChance = options.commentChance ?? 0.4;
  const k = minNodes + rnd.int(maxNodes - minNodes + 1);
  const lines: number[][] = [];
  const degree = new Array<number>(k).fill(0);
  const share = new Set<string>();
  const attempts = rnd.int(3 * k + 1);
  for (let a = 0; a < attempts; a++) {
    const size = 1 + rnd.int(Math.min(maxLineNodes, k));
    const members = rnd.shuffle(Array.from({ length: k }, (_, v) => v)).slice(0, size).sort((x, y) => x - y);
    if (members.some((v) => degree[v] >= 4)) continue;
    const pairs: string[] = [];
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) pairs.push(`${members[i]}-${members[j]}`);
    }
    if (pairs.some((p) => share.has(p))) continue;
    pairs.forEach((p) => share.add(p));
    members.forEach((v) => degree[v]++);
    lines.push(members);
  }
  for (let v = 0; v < k; v++) {
    if (degree[v] === 0) {
      lines.push([v]);
      degree[v]++;
    }
  }
  const nodes: DescriptionNode[] = Array.from({ length: k }, (_, v) => {
    const mine: NodeLine[] = lines
      .filter((members) => members.includes(v))
      .map((members) => ({ others: members.filter((w) => w !== v).map((w) => w + 1), spec: randomSpec(rnd) }));
    const shuffled = rnd.shuffle(mine);
    return rnd.next() < commentChance ? { lines: shuffled, comment: 1 + rnd.int(9) } : { lines: shuffled };
  });
  // A comment may not promise a five sooner than the fullest pattern allows (6 - n moves).
  const least = 6 - Math.max(...nodes.flatMap((node) => node.lines.map((line) => line.spec.n)));
  return { nodes: nodes.map((node) => (node.comment !== undefined && node.comment < least ? { ...node, comment: least } : node)) };
}

/** A random permutation of 1…k in the convention of `relabel`. */
export function randomPermutation(rnd: Random, k: number): number[] {
  return rnd.shuffle(Array.from({ length: k }, (_, i) => i + 1));
}
