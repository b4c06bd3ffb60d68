import { SiteLink } from './links';

const variants = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800',
  secondary: 'border-2 border-brand-700 bg-white text-brand-700 hover:bg-brand-50',
  light: 'bg-white text-brand-800 hover:bg-brand-50',
};

export function buttonClass(variant: keyof typeof variants = 'primary', extra = ''): string {
  return `inline-flex min-h-11 items-center justify-center rounded-md px-5 py-2.5 font-semibold transition-colors ${variants[variant]} ${extra}`;
}

/** A link that looks like a button, on the public pages and the donor space (neither hydrates). */
export function ButtonLink({ variant = 'primary', className = '', ...props }: React.ComponentProps<typeof SiteLink> & { variant?: keyof typeof variants }) {
  return <SiteLink className={buttonClass(variant, className)} {...props} />;
}
