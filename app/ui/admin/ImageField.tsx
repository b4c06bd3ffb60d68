import { useState } from 'react';
import { inputClass } from './Field';

export interface ImageFieldProps {
  name: string;
  label: string;
  defaultValue?: string;
  error?: string;
  /** What the field holds: an image (default) or a PDF document (membership form). */
  accept?: 'image' | 'pdf';
  id?: string;
}

/**
 * A media field of the content screens: a URL (a file of the media library, `/media/…`, or any
 * https address) with a preview. The media library adds a picker to it.
 */
export function ImageField({ name, label, defaultValue = '', error, accept = 'image', id = name }: ImageFieldProps) {
  const [value, setValue] = useState(defaultValue);
  const hintId = `${id}-hint`;
  const describedBy = [hintId, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      <div className="mt-1 flex items-start gap-3">
        {accept === 'image' && value ? (
          <img src={value} alt="" className="h-16 w-24 flex-none rounded border border-gray-200 object-cover" />
        ) : null}
        <input
          id={id}
          name={name}
          type="text"
          inputMode="url"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={inputClass(Boolean(error)).replace('mt-1 ', '')}
        />
      </div>
      <p id={hintId} className="mt-1 text-sm text-gray-600">
        Copiez l’URL d’un fichier depuis la médiathèque, ou collez une adresse https.
      </p>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
