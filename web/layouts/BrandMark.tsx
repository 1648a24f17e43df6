import { Link as RouterLink } from 'react-router';
import './BrandMark.css';

/**
 * The product's text logo: a monogram and the name, linking home. Plain elements over the theme's
 * CSS variables, so the public frame that shows it loads no MUI code.
 */
export function BrandMark({ to = '/', onClick }: { to?: string; onClick?: () => void }) {
  return (
    <RouterLink to={to} onClick={onClick} className="ea-brand">
      <span aria-hidden className="ea-brand-monogram">
        EA
      </span>
      <span className="ea-brand-name">EconAgents</span>
    </RouterLink>
  );
}
