import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';

export interface RichTextFieldProps {
  name: string;
  label: string;
  description?: string;
  error?: string;
  required?: boolean;
  disabled: boolean;
  value: string;
  onChange: (html: string) => void;
}

/**
 * Rich text for admins: the formatting the server's sanitiser keeps (headings,
 * bold, italic, underline, strike, lists, quotes, code, links) and nothing it
 * would strip. Loaded only by forms that have such a field.
 */
export default function RichTextField({ name, label, description, error, required, disabled, value, onChange }: RichTextFieldProps) {
  const editor = useEditor({
    // StarterKit 3 brings its own Link; Mantine's adds the toolbar's link control.
    extensions: [StarterKit.configure({ link: false, heading: { levels: [2, 3, 4] } }), Link.configure({ openOnClick: false })],
    content: value,
    editable: !disabled,
    immediatelyRender: false,
    editorProps: { attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true', 'data-field': name } },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });

  // Follow outside changes (record loaded, form reset) without fighting the caret while typing.
  useEffect(() => {
    if (editor && !editor.isFocused && editor.getHTML() !== value) editor.commands.setContent(value || '', { emitUpdate: false });
  }, [editor, value]);
  // Without an update: tiptap's setEditable emits one by default, which handed the editor's own
  // rewrite of the loaded HTML (target="_blank" on links, <li><p>) to the form as an edit, so a
  // page just opened said "Unsaved changes".
  useEffect(() => {
    editor?.setEditable(!disabled, false);
  }, [editor, disabled]);

  return (
    <Input.Wrapper label={label} description={description} error={error} withAsterisk={required}>
      <RichTextEditor editor={editor} mt={4} style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}>
        {!disabled && (
          <RichTextEditor.Toolbar>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Bold />
              <RichTextEditor.Italic />
              <RichTextEditor.Underline />
              <RichTextEditor.Strikethrough />
              <RichTextEditor.Code />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.H2 />
              <RichTextEditor.H3 />
              <RichTextEditor.Blockquote />
              <RichTextEditor.BulletList />
              <RichTextEditor.OrderedList />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Link />
              <RichTextEditor.Unlink />
            </RichTextEditor.ControlsGroup>
          </RichTextEditor.Toolbar>
        )}
        <RichTextEditor.Content mih={160} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
