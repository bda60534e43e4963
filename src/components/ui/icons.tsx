/**
 * The islands' icons (Lucide's outlines), inline so that no island needs an extra request.
 * Astro pages draw theirs from the stylesheet (src/components/ui/Icon.astro); an island
 * rendering on its own needs its markup.
 */
import type { ReactNode } from 'react';

function Svg({ size = 24, children }: { size?: number | undefined; children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

interface IconProps {
  size?: number;
}

export const PlayIcon = ({ size }: IconProps) => (
  <Svg size={size}>
    <polygon points="6 3 20 12 6 21 6 3" />
  </Svg>
);
export const PauseIcon = ({ size }: IconProps) => (
  <Svg size={size}>
    <rect x="14" y="4" width="4" height="16" rx="1" />
    <rect x="6" y="4" width="4" height="16" rx="1" />
  </Svg>
);
export const BackIcon = ({ size }: IconProps) => (
  <Svg size={size}>
    <path d="M3 12a9 9 0 1 0 9-9 9.75 9.75 0 0 0-6.74 2.74L3 8" />
    <path d="M3 3v5h5" />
  </Svg>
);
export const ForwardIcon = ({ size }: IconProps) => (
  <Svg size={size}>
    <path d="M21 12a9 9 0 1 1-9-9c2.52 0 4.93 1 6.74 2.74L21 8" />
    <path d="M21 3v5h-5" />
  </Svg>
);
export const CloseIcon = ({ size }: IconProps) => (
  <Svg size={size}>
    <path d="M18 6 6 18" />
    <path d="m6 6 12 12" />
  </Svg>
);
export const UserIcon = ({ size }: IconProps) => (
  <Svg size={size}>
    <circle cx="12" cy="8" r="5" />
    <path d="M20 21a8 8 0 0 0-16 0" />
  </Svg>
);
export const SearchIcon = ({ size }: IconProps) => (
  <Svg size={size}>
    <circle cx="11" cy="11" r="8" />
    <path d="m21 21-4.3-4.3" />
  </Svg>
);
export const SkipBackIcon = ({ size }: IconProps) => (
  <Svg size={size}>
    <path d="M17.971 4.285A2 2 0 0 1 21 6v12a2 2 0 0 1-3.029 1.715l-9.997-5.998a2 2 0 0 1-.003-3.432zM3 20V4" />
  </Svg>
);
export const ListPlayIcon = ({ size }: IconProps) => (
  <Svg size={size}>
    <path d="M21 5H3m7 7H3m7 7H3m12-6.997a1 1 0 0 1 1.517-.859l4.997 2.997a1 1 0 0 1 0 1.718l-4.997 2.997a1 1 0 0 1-1.517-.86z" />
  </Svg>
);
