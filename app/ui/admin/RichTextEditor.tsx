import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import Image from '@tiptap/extension-image';
import StarterKit from '@tiptap/starter-kit';
import { useState, type ReactNode } from 'react';
import { MediaPicker } from './ImageField';

/**
 * The rich-text editor of the content screens (Tiptap), loaded lazily by RichTextField in the back
 * office only. Its toolbar is exactly the product's: headings 1–3, bold, italic, underline, strike,
 * ordered and bullet lists, link, clean; every other kind of markup is left out of its schema, and
 * the server's sanitizer allows the same set (app/lib/sanitize.server.ts). With `images` (a
 * letter's body, ADR 039) it also inserts images from the media library, each with its
 * alternative text, which the letters' sanitizer allows.
 */
export interface RichTextEditorProps {
  id: string;
  labelId: string;
  describedBy?: string;
  invalid: boolean;
  value: string;
  onChange: (html: string) => void;
  /** Images from the media library too (letters). */
  images?: boolean;
}

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

export default function RichTextEditor({ id, labelId, describedBy, invalid, value, onChange, images = false }: RichTextEditorProps) {
  const [picking, setPicking] = useState(false);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        blockquote: false,
        code: false,
        codeBlock: false,
        horizontalRule: false,
        link: {
          openOnClick: false,
          autolink: true,
          protocols: ['http', 'https', 'mailto'],
          isAllowedUri: (url) => SAFE_LINK.test(url),
          HTMLAttributes: { target: '_blank', rel: 'noopener noreferrer' },
        },
      }),
      ...(images ? [Image.configure({ inline: false, allowBase64: false })] : []),
    ],
    content: value,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
        class: 'prose-content min-h-40 px-3 py-2 text-base text-gray-900 focus:outline-none',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h1: e?.isActive('heading', { level: 1 }) ?? false,
      h2: e?.isActive('heading', { level: 2 }) ?? false,
      h3: e?.isActive('heading', { level: 3 }) ?? false,
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      underline: e?.isActive('underline') ?? false,
      strike: e?.isActive('strike') ?? false,
      ordered: e?.isActive('orderedList') ?? false,
      bullet: e?.isActive('bulletList') ?? false,
      link: e?.isActive('link') ?? false,
    }),
  });
  if (!editor) return null;
  const chain = () => editor.chain().focus();
  const setLink = () => {
    const current = editor.getAttributes('link').href as string | undefined;
    const url = window.prompt('Adresse du lien (https://…, http://… ou mailto:…). Laissez vide pour retirer le lien.', current ?? 'https://');
    if (url === null) return;
    const href = url.trim();
    if (href === '' || href === 'https://') {
      chain().extendMarkRange('link').unsetLink().run();
      return;
    }
    if (!SAFE_LINK.test(href)) {
      window.alert('Seules les adresses http, https et mailto sont acceptées.');
      return;
    }
    chain().extendMarkRange('link').setLink({ href }).run();
  };
  const button = (label: string, glyph: ReactNode, pressed: boolean | undefined, run: () => void) => (
    <button
      type="button"
      aria-pressed={pressed}
      title={label}
      onMouseDown={(e) => e.preventDefault()}
      onClick={run}
      className={`inline-flex h-11 min-w-11 items-center justify-center rounded px-2 text-sm font-semibold ${pressed ? 'bg-brand-100 text-brand-900' : 'text-gray-800 hover:bg-gray-100'}`}
    >
      <span aria-hidden="true">{glyph}</span>
      <span className="sr-only">{label}</span>
    </button>
  );
  return (
    <div className={`mt-1 rounded-md border bg-white ${invalid ? 'border-red-700' : 'border-gray-400'}`}>
      <div role="toolbar" aria-label="Mise en forme" aria-controls={id} className="flex flex-wrap gap-1 border-b border-gray-200 p-1">
        {button('Titre 1', 'H1', state?.h1, () => chain().toggleHeading({ level: 1 }).run())}
        {button('Titre 2', 'H2', state?.h2, () => chain().toggleHeading({ level: 2 }).run())}
        {button('Titre 3', 'H3', state?.h3, () => chain().toggleHeading({ level: 3 }).run())}
        {button('Gras', <strong>B</strong>, state?.bold, () => chain().toggleBold().run())}
        {button('Italique', <em>I</em>, state?.italic, () => chain().toggleItalic().run())}
        {button('Souligné', <u>U</u>, state?.underline, () => chain().toggleUnderline().run())}
        {button('Barré', <s>S</s>, state?.strike, () => chain().toggleStrike().run())}
        {button('Liste numérotée', '1.', state?.ordered, () => chain().toggleOrderedList().run())}
        {button('Liste à puces', '•', state?.bullet, () => chain().toggleBulletList().run())}
        {button('Lien', '🔗', state?.link, setLink)}
        {images && button('Image de la médiathèque', '🖼', undefined, () => setPicking(true))}
        {button('Effacer la mise en forme', '⌫', undefined, () => chain().unsetAllMarks().clearNodes().run())}
      </div>
      <EditorContent editor={editor} />
      {picking && (
        <MediaPicker
          id={`${id}-picker`}
          accept="image"
          fieldLabel="Image à insérer dans le texte"
          onClose={() => setPicking(false)}
          onPick={(url) => {
            setPicking(false);
            const alt = window.prompt('Texte de remplacement : ce que montre l’image, pour qui ne la voit pas (laissez vide si elle est décorative).', '') ?? '';
            chain().setImage({ src: url, alt: alt.trim() }).run();
          }}
        />
      )}
    </div>
  );
}
