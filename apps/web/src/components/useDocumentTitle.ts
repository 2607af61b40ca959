import { useEffect } from 'react';

export function useDocumentTitle(title: string, siteName = 'Pitboss'): void {
  useEffect(() => {
    document.title = title ? `${title} · ${siteName}` : siteName;
  }, [title, siteName]);
}
