/** Shows rich HTML that the server already sanitized against the editor's allowlist. */
export function RichText({ html, className = '' }: { html: string; className?: string }) {
  return <div className={`prose-content ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
