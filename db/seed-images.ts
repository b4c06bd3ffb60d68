/**
 * Pictures for the default content, drawn at first start (no binary files in the repository and
 * nothing to license): simple landscapes and logos rendered from SVG by sharp.
 */
export interface SeedPicture {
  name: string;
  width: number;
  height: number;
  svg: string;
}

const palettes = [
  ['#f6d365', '#fda085', '#2f6f4f', '#4c956c'],
  ['#a1c4fd', '#c2e9fb', '#1b4965', '#5fa8d3'],
  ['#fbc2eb', '#a6c1ee', '#6a4c93', '#8ac926'],
  ['#ffecd2', '#fcb69f', '#8c4a2f', '#d4a373'],
  ['#84fab0', '#8fd3f4', '#1d3557', '#457b9d'],
  ['#fddb92', '#d1fdff', '#386641', '#6a994e'],
];

function landscape(width: number, height: number, seed: number): string {
  const [sky1, sky2, hill1, hill2] = palettes[seed % palettes.length];
  const sunX = Math.round(width * (0.2 + ((seed * 37) % 60) / 100));
  const h = height;
  const w = width;
  const people = Array.from({ length: 3 + (seed % 3) }, (_, i) => {
    const x = Math.round(w * (0.3 + i * 0.1));
    const y = Math.round(h * 0.78);
    const s = Math.round(h * (0.05 + ((seed + i) % 3) * 0.01));
    return `<circle cx="${x}" cy="${y - s * 2.4}" r="${s * 0.5}" fill="#2b2d42" opacity=".85"/><rect x="${x - s * 0.45}" y="${y - s * 1.9}" width="${s * 0.9}" height="${s * 1.9}" rx="${s * 0.4}" fill="#2b2d42" opacity=".85"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky1}"/><stop offset="1" stop-color="${sky2}"/></linearGradient></defs>
<rect width="${w}" height="${h}" fill="url(#s)"/>
<circle cx="${sunX}" cy="${Math.round(h * 0.3)}" r="${Math.round(h * 0.12)}" fill="#fff" opacity=".7"/>
<path d="M0 ${h * 0.7} Q ${w * 0.25} ${h * 0.5} ${w * 0.5} ${h * 0.68} T ${w} ${h * 0.62} V ${h} H 0 Z" fill="${hill2}"/>
<path d="M0 ${h * 0.82} Q ${w * 0.3} ${h * 0.7} ${w * 0.6} ${h * 0.82} T ${w} ${h * 0.78} V ${h} H 0 Z" fill="${hill1}"/>
${people}
</svg>`;
}

function logo(width: number, height: number, color: string, shape: number): string {
  const cx = width / 2;
  const cy = height / 2;
  const r = Math.min(width, height) * 0.32;
  const shapes = [
    `<path d="M${cx} ${cy + r} C ${cx - r * 1.6} ${cy - r * 0.2}, ${cx - r * 0.6} ${cy - r * 1.3}, ${cx} ${cy - r * 0.4} C ${cx + r * 0.6} ${cy - r * 1.3}, ${cx + r * 1.6} ${cy - r * 0.2}, ${cx} ${cy + r} Z" fill="${color}"/>`,
    `<polygon points="${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}" fill="${color}"/>`,
    `<rect x="${cx - r}" y="${cy - r}" width="${r * 2}" height="${r * 2}" rx="${r * 0.4}" fill="${color}"/>`,
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${color}"/><circle cx="${cx}" cy="${cy}" r="${r * 0.5}" fill="#fff"/>`,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="#fff"/>${shapes[shape % shapes.length]}</svg>`;
}

export function seedPictures(): Record<string, SeedPicture> {
  const pics: Record<string, SeedPicture> = {};
  const add = (id: string, name: string, width: number, height: number, svg: string) => {
    pics[id] = { name, width, height, svg };
  };
  for (let i = 1; i <= 5; i++) add(`hero${i}`, `accueil-${i}.jpg`, 1600, 900, landscape(1600, 900, i));
  for (let i = 1; i <= 3; i++) add(`action${i}`, `action-${i}.jpg`, 1200, 800, landscape(1200, 800, i + 5));
  add('founder', 'fondateur.jpg', 800, 1000, landscape(800, 1000, 9));
  for (let i = 1; i <= 4; i++) add(`mission${i}`, `mission-${i}.jpg`, 1200, 800, landscape(1200, 800, i + 10));
  for (let i = 1; i <= 3; i++) add(`project${i}`, `projet-${i}.jpg`, 1200, 800, landscape(1200, 800, i + 14));
  for (let i = 1; i <= 3; i++) add(`post${i}`, `article-${i}.jpg`, 1200, 675, landscape(1200, 675, i + 18));
  add('logo', 'logo.png', 256, 256, logo(256, 256, '#c2410c', 0));
  const partnerColors = ['#1d4ed8', '#15803d', '#7e22ce'];
  for (let i = 1; i <= 3; i++) add(`partner${i}`, `partenaire-${i}.png`, 400, 200, logo(400, 200, partnerColors[i - 1], i));
  return pics;
}
