import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { MarkdownView } from './MarkdownView';

afterEach(cleanup);

describe('MarkdownView', () => {
  it('renders inline and display math with KaTeX and GitHub tables', () => {
    const { container } = render(
      <MarkdownView
        source={
          'Growth is $g = \\dot{y}/y$.\n\n$$\nY = A K^\\alpha L^{1-\\alpha}\n$$\n\n| a | b |\n|---|---|\n| 1 | 2 |'
        }
      />,
    );
    expect(container.querySelectorAll('.katex').length).toBe(2);
    expect(container.querySelector('.katex-display')).not.toBeNull();
    expect(container.querySelector('annotation')?.textContent).toContain('\\dot{y}');
    expect(container.querySelector('table td')?.textContent).toBe('1');
    expect(container.textContent).not.toContain('$$');
  });

  it('does not turn raw HTML in a document into markup', () => {
    const { container } = render(
      <MarkdownView source={'<img src=x onerror="alert(1)"> <script>alert(2)</script> hi'} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
  });
});
