import { RichText } from '~/ui/primitives/RichText';
import { PreviewBanner } from './PreviewBanner';

export function LegalPage({ title, content, preview }: { title: string; content: string; preview?: boolean }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      {preview && <PreviewBanner className="mb-6" />}
      <h1 className="text-4xl font-extrabold">{title}</h1>
      <RichText html={content} className="mt-8 text-lg text-gray-800" />
    </div>
  );
}
