import { RichText } from '~/ui/primitives/RichText';

export function LegalPage({ title, content }: { title: string; content: string }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold">{title}</h1>
      <RichText html={content} className="mt-8 text-lg text-gray-800" />
    </div>
  );
}
